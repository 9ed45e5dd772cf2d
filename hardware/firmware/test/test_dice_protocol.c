/*
 * Host unit test of the firmware's framing and CRC (dice_protocol.c), run by
 * tests/hardware/test_dice_firmware.py, which generates vectors.h from the shared
 * tests/hardware/dice/vectors.json and compiles this file with gcc.
 */
#include <stdio.h>
#include <string.h>

#include "dice_protocol.h"
#include "vectors.h" /* CRC_CASES, ENCODE_CASES, STREAM_CASES and their counts */

static int failures = 0;

#define CHECK(cond, ...)                     \
    do {                                     \
        if (!(cond)) {                       \
            failures++;                      \
            printf("FAIL: " __VA_ARGS__);    \
            printf("\n");                    \
        }                                    \
    } while (0)

static void test_crc(void)
{
    CHECK(dp_crc16((const uint8_t *)"123456789", 9) == 0x31C3, "check value 31C3");
    for (size_t i = 0; i < CRC_COUNT; i++) {
        const struct crc_case *c = &CRC_CASES[i];
        unsigned got = dp_crc16((const uint8_t *)c->data, c->len);
        CHECK(got == c->crc, "crc of case %zu: got %04X want %04X", i, got, c->crc);
    }
}

static void test_encode(void)
{
    char out[DP_MAX_FRAME + 8];
    for (size_t i = 0; i < ENCODE_COUNT; i++) {
        const struct encode_case *c = &ENCODE_CASES[i];
        size_t n = dp_encode(c->body, out, sizeof out);
        if (c->frame == NULL) {
            CHECK(n == 0, "encode case %zu should be refused", i);
        } else {
            CHECK(n == strlen(c->frame) && strcmp(out, c->frame) == 0,
                  "encode case %zu: got '%s'", i, n ? out : "(refused)");
        }
    }
    CHECK(dp_encode("HELLO?", out, 10) == 0, "encode refuses a small buffer");
}

static void test_streams(void)
{
    for (size_t i = 0; i < STREAM_COUNT; i++) {
        const struct stream_case *c = &STREAM_CASES[i];
        dp_parser p;
        dp_parser_init(&p);
        int frames = 0, crc = 0, garbage = 0;
        for (size_t k = 0; k < c->len; k++) {
            const char *body = NULL;
            size_t body_len = 0;
            enum dp_result r = dp_feed(&p, (uint8_t)c->input[k], &body, &body_len);
            if (r == DP_FRAME) {
                CHECK(frames < c->nframes && strlen(c->frames[frames]) == body_len &&
                          memcmp(body, c->frames[frames], body_len) == 0,
                      "stream '%s': unexpected frame '%s'", c->name, body);
                frames++;
            } else if (r == DP_CRC) {
                crc++;
            } else if (r == DP_GARBAGE) {
                garbage++;
            }
        }
        CHECK(frames == c->nframes, "stream '%s': %d frames, want %d", c->name, frames,
              c->nframes);
        CHECK(crc == c->crc_errors, "stream '%s': %d crc errors, want %d", c->name, crc,
              c->crc_errors);
        CHECK(garbage == c->garbage, "stream '%s': %d garbage, want %d", c->name, garbage,
              c->garbage);
    }
}

struct emitted {
    const struct parts_case *c;
    int n;
};

static size_t case_item(uint8_t index, char *out, size_t size, void *ctx)
{
    const struct parts_case *c = ((struct emitted *)ctx)->c;
    size_t n = strlen(c->items[index]);
    if (n >= size)
        return 0;
    memcpy(out, c->items[index], n + 1);
    return n;
}

static void case_emit(const char *body, void *ctx)
{
    struct emitted *e = ctx;
    CHECK(e->n < e->c->nbodies && strcmp(body, e->c->bodies[e->n]) == 0,
          "parts %s %u: unexpected body '%s'", e->c->kind, e->c->seq, body);
    char frame[DP_MAX_FRAME + 1];
    CHECK(dp_encode(body, frame, sizeof frame) > 0, "parts body too long: '%s'", body);
    e->n++;
}

static void test_parts(void)
{
    for (size_t i = 0; i < PARTS_COUNT; i++) {
        const struct parts_case *c = &PARTS_CASES[i];
        struct emitted e = {c, 0};
        uint16_t seq = c->seq;
        uint8_t n = dp_parts(c->kind, &seq, c->has_roll, c->roll, (uint8_t)c->nitems,
                             case_item, case_emit, &e);
        CHECK(n == c->nbodies && e.n == c->nbodies, "parts %s %u: %u parts, want %d",
              c->kind, c->seq, n, c->nbodies);
        CHECK(seq == (uint16_t)(c->seq + c->nbodies), "parts %s: seq not advanced", c->kind);
    }
}

int main(void)
{
    test_crc();
    test_encode();
    test_streams();
    test_parts();
    printf("%s: %zu crc, %zu encode, %zu stream, %zu parts vectors, %d failures\n",
           failures ? "FAILED" : "OK", CRC_COUNT, ENCODE_COUNT, STREAM_COUNT, PARTS_COUNT,
           failures);
    return failures ? 1 : 0;
}
