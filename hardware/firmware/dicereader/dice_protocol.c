/* Dice-reader protocol framing and CRC: see dice_protocol.h and docs/dice-protocol.md. */
#include "dice_protocol.h"

enum { ST_IDLE = 0, ST_FRAME = 1, ST_SKIP = 2 };

static const char HEX[] = "0123456789ABCDEF";

uint16_t dp_crc16(const uint8_t *data, size_t len)
{
    uint16_t crc = 0;
    for (size_t i = 0; i < len; i++) {
        crc ^= (uint16_t)data[i] << 8;
        for (uint8_t bit = 0; bit < 8; bit++)
            crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    }
    return crc;
}

static int body_char_ok(uint8_t c)
{
    return c >= 0x20 && c <= 0x7E && c != '$' && c != '*';
}

size_t dp_encode(const char *body, char *out, size_t outsize)
{
    size_t n = 0;
    while (body[n] != '\0') {
        if (!body_char_ok((uint8_t)body[n]) || n >= DP_MAX_BODY)
            return 0;
        n++;
    }
    if (n == 0 || outsize < n + 8) /* '$' + body + '*' + 4 + '\n' + NUL */
        return 0;
    uint16_t crc = dp_crc16((const uint8_t *)body, n);
    out[0] = '$';
    for (size_t i = 0; i < n; i++)
        out[1 + i] = body[i];
    out[n + 1] = '*';
    out[n + 2] = HEX[(crc >> 12) & 0xF];
    out[n + 3] = HEX[(crc >> 8) & 0xF];
    out[n + 4] = HEX[(crc >> 4) & 0xF];
    out[n + 5] = HEX[crc & 0xF];
    out[n + 6] = '\n';
    out[n + 7] = '\0';
    return n + 7;
}

void dp_parser_init(dp_parser *p)
{
    p->state = ST_IDLE;
    p->junk = 0;
    p->len = 0;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1; /* lowercase is not allowed */
}

/* Checks p->buf[0..len): BODY '*' CRC with an optional trailing '\r'. */
static enum dp_result check_frame(dp_parser *p, const char **body, size_t *body_len)
{
    size_t len = p->len;
    if (len > 0 && p->buf[len - 1] == '\r')
        len--;
    size_t star = len;
    for (size_t i = len; i > 0; i--) {
        if (p->buf[i - 1] == '*') {
            star = i - 1;
            break;
        }
    }
    if (star == len || len - star != 5)
        return DP_GARBAGE;
    uint16_t want = 0;
    for (size_t i = star + 1; i < len; i++) {
        int v = hex_value(p->buf[i]);
        if (v < 0)
            return DP_GARBAGE;
        want = (uint16_t)((want << 4) | (uint16_t)v);
    }
    if (dp_crc16((const uint8_t *)p->buf, star) != want)
        return DP_CRC;
    if (star == 0)
        return DP_GARBAGE;
    for (size_t i = 0; i < star; i++) {
        if (!body_char_ok((uint8_t)p->buf[i]))
            return DP_GARBAGE;
    }
    p->buf[star] = '\0';
    *body = p->buf;
    *body_len = star;
    return DP_FRAME;
}

enum dp_result dp_feed(dp_parser *p, uint8_t byte, const char **body, size_t *body_len)
{
    enum dp_result result = DP_NONE;
    switch (p->state) {
    case ST_IDLE:
        if (byte == '$' || byte == '\n') {
            if (p->junk)
                result = DP_GARBAGE;
            p->junk = 0;
            if (byte == '$') {
                p->state = ST_FRAME;
                p->len = 0;
            }
        } else if (byte != '\r') {
            p->junk = 1;
        }
        break;
    case ST_SKIP:
        if (byte == '$') {
            p->state = ST_FRAME;
            p->len = 0;
        } else if (byte == '\n') {
            p->state = ST_IDLE;
        }
        break;
    default: /* in a frame */
        if (byte == '$') {
            result = DP_GARBAGE; /* a partial frame cut by the next '$' */
            p->len = 0;
        } else if (byte == '\n') {
            result = check_frame(p, body, body_len);
            p->state = ST_IDLE;
            p->len = 0;
        } else if (p->len >= DP_MAX_CONTENT) {
            result = DP_GARBAGE; /* overlong: skip to the next '\n' or '$' */
            p->state = ST_SKIP;
            p->len = 0;
        } else {
            p->buf[p->len++] = (char)byte;
        }
        break;
    }
    return result;
}

/* ------------------------------------------------------------------ version 2: parts */

static size_t put_text(char *out, const char *text)
{
    size_t n = 0;
    while (text[n] != '\0') {
        out[n] = text[n];
        n++;
    }
    return n;
}

static size_t put_u32(char *out, uint32_t value)
{
    char digits[10];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + value % 10);
        value /= 10;
    } while (value);
    for (size_t i = 0; i < n; i++)
        out[i] = digits[n - 1 - i];
    return n;
}

/* "KIND seq[ r=roll][ p=part/total]" into out (room for it is checked by the caller). */
static size_t put_head(char *out, const char *kind, uint16_t seq, int has_roll, uint32_t roll,
                       uint8_t part, uint8_t total)
{
    size_t n = put_text(out, kind);
    out[n++] = ' ';
    n += put_u32(out + n, seq);
    if (has_roll) {
        n += put_text(out + n, " r=");
        n += put_u32(out + n, roll);
    }
    if (total > 1) {
        n += put_text(out + n, " p=");
        n += put_u32(out + n, part);
        out[n++] = '/';
        n += put_u32(out + n, total);
    }
    return n;
}

uint8_t dp_parts(const char *kind, uint16_t *seq, int has_roll, uint32_t roll, uint8_t count,
                 dp_item_fn item, dp_emit_fn emit, void *ctx)
{
    size_t kind_len = 0;
    while (kind[kind_len] != '\0')
        kind_len++;
    /* the longest header: "KIND 65535 r=4294967295 p=99/99" */
    size_t head = kind_len + 6 + (has_roll ? 13 : 0) + 8;
    if (head >= DP_MAX_BODY)
        return 0;
    size_t room = DP_MAX_BODY - head;
    uint8_t total = 0;
    for (int pass = 0; pass < 2; pass++) { /* pass 0 counts the parts, pass 1 sends them */
        char body[DP_MAX_BODY + 1];
        char it[DP_MAX_BODY + 1];
        size_t len = 0, used = 0;
        uint8_t part = 0;
        int open = 0;
        for (uint8_t i = 0; i < count; i++) {
            size_t n = item(i, it, sizeof it, ctx);
            if (n == 0)
                continue;
            if (n >= sizeof it || n + 1 > room)
                return 0;
            if (open && used + n + 1 > room) {
                body[len] = '\0';
                if (pass == 1 && emit)
                    emit(body, ctx);
                open = 0;
            }
            if (!open) {
                if (++part > DP_MAX_PARTS)
                    return 0;
                len = put_head(body, kind, (uint16_t)(*seq + part - 1), has_roll, roll, part,
                               pass == 1 ? total : 1);
                used = 0;
                open = 1;
            }
            body[len++] = ' ';
            for (size_t k = 0; k < n; k++)
                body[len++] = it[k];
            used += n + 1;
        }
        if (open) {
            body[len] = '\0';
            if (pass == 1 && emit)
                emit(body, ctx);
        }
        total = part;
        if (total == 0)
            return 0;
    }
    *seq = (uint16_t)(*seq + total);
    return total;
}
