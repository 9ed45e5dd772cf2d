/*
 * Reference firmware for a Table Companion dice reader (protocol: docs/dice-protocol.md).
 *
 * It speaks the whole protocol, version 2: HELLO at boot and on HELLO?, EV on every die
 * change, RD when a roll is complete, ST on STATE?, DI (each die's group) on DICE?, HB twice a
 * second, ERR on bad commands, and LED. RD, ST and DI are split into parts (p=<i>/<n>) when
 * the dice do not fit one frame (dp_parts in dice_protocol.c), so a reader may have many dice.
 * The only part a builder writes is sensor_read() below (marked BUILDER): how your
 * hardware tells whether a die is absent, rolling, tilted or settled and which face is up.
 * Framing and CRC live in dice_protocol.c, unit-tested on the host against the same test
 * vectors as the companion's parser (tests/hardware/test_dice_firmware.py).
 *
 * Board: any Arduino with a USB serial port (Uno, Nano, Leonardo, Pro Micro...).
 */
#include <stdio.h>
#include <string.h>

#include "dice_protocol.h"

#define FIRMWARE_VERSION "2.0.0"
#define DEVICE_UID "00C0FFEE"       /* hex, unique per reader: change it per board */
#define HEARTBEAT_MS 500            /* the protocol asks for at least one per second */
#define SENSOR_PERIOD_MS 20

/* Die ids: 1-16 characters of [A-Za-z0-9_-], fixed per physical die (the host maps them
 * to a game's roles once per table); keep them short when there are many dice. Each die has
 * a group, same characters: "neutral", or a player's colour. World Without End needs one
 * die, the tax die; Monasterium up to 22 (build with -DDICEREADER_MANY_DICE_DEMO to try). */
#ifdef DICEREADER_MANY_DICE_DEMO
static const char *const DIE_IDS[] = {
    "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9", "n10",
    "r1", "r2", "r3", "b1", "b2", "b3", "g1", "g2", "g3", "y1", "y2", "y3"};
static const char *const DIE_GROUPS[] = {
    "neutral", "neutral", "neutral", "neutral", "neutral", "neutral", "neutral", "neutral",
    "neutral", "neutral", "red", "red", "red", "blue", "blue", "blue", "green", "green",
    "green", "yellow", "yellow", "yellow"};
static const uint16_t DEMO_FACES[] = {1, 2, 3, 4, 5, 6};
#else
static const char *const DIE_IDS[] = {"tax"};
static const char *const DIE_GROUPS[] = {"neutral"};
static const uint16_t DEMO_FACES[] = {2, 3, 3, 4, 4, 5}; /* demo: a tax die */
#endif
#define DICE (sizeof DIE_IDS / sizeof DIE_IDS[0])

enum die_state { ABSENT = 0, ROLLING = 1, SETTLED = 2, TILTED = 3 };
static const char *const STATE_NAMES[] = {"ABSENT", "ROLLING", "SETTLED", "TILTED"};

/* ---------------------------------------------------------------- BUILDER: fill this in
 * Report what the sensor sees for die `index` (DIE_IDS[index]) right now:
 * return ABSENT, ROLLING (moving), TILTED (at rest but not flat: cocked die) or SETTLED,
 * and for SETTLED write the value printed on the upper face into *face.
 * Debounce here if your sensor needs it: report SETTLED only once the face is stable
 * (e.g. the same face for ~150 ms). This placeholder reads a push button on pin 2 as
 * "every die rolling" and settles each on a pseudo-random face so the firmware can be tried
 * on a bare board. */
static enum die_state sensor_read(uint8_t index, uint16_t *face)
{
    static uint16_t last_face[DICE];
    pinMode(2, INPUT_PULLUP);
    if (digitalRead(2) == LOW) {
        last_face[index] = DEMO_FACES[random(0, 6)];
        return ROLLING;
    }
    *face = last_face[index] ? last_face[index] : DEMO_FACES[0];
    return SETTLED;
}
/* ---------------------------------------------------------------- end of BUILDER part */

static enum die_state states[DICE];
static uint16_t faces[DICE];
static uint32_t roll_number = 0;    /* last completed roll */
static bool moved_since_roll = false;
static uint16_t seq = 0;            /* one counter for every message but HELLO */
static dp_parser parser;
static unsigned long last_heartbeat = 0, last_sensor = 0;

static void send_body(const char *body)
{
    char frame[DP_MAX_FRAME + 1];
    size_t n = dp_encode(body, frame, sizeof frame);
    if (n > 0)
        Serial.write((const uint8_t *)frame, n);
}

/* Messages with a sequence number: "<KIND> <seq> <rest>". */
static void send_numbered(const char *kind, const char *rest)
{
    char body[DP_MAX_BODY + 1];
    snprintf(body, sizeof body, "%s %u%s%s", kind, seq, rest[0] ? " " : "", rest);
    seq++; /* uint16_t wraps 65535 -> 0 as the protocol says */
    send_body(body);
}

static void send_hello(void)
{
    char body[DP_MAX_BODY + 1];
    snprintf(body, sizeof body, "HELLO dicereader proto=%d fw=%s dice=%u uid=%s",
             DP_PROTOCOL_VERSION, FIRMWARE_VERSION, (unsigned)DICE, DEVICE_UID);
    send_body(body);
}

/* The items of RD ("n1=6", present dice only), ST ("n1=SETTLED:6", every die) and DI
 * ("n1=neutral"), for dp_parts. */
static size_t reading_item(uint8_t i, char *out, size_t size, void *ctx)
{
    (void)ctx;
    if (states[i] == ABSENT)
        return 0;
    return (size_t)snprintf(out, size, "%s=%u", DIE_IDS[i], faces[i]);
}

static size_t state_item(uint8_t i, char *out, size_t size, void *ctx)
{
    (void)ctx;
    if (states[i] == SETTLED)
        return (size_t)snprintf(out, size, "%s=SETTLED:%u", DIE_IDS[i], faces[i]);
    return (size_t)snprintf(out, size, "%s=%s", DIE_IDS[i], STATE_NAMES[states[i]]);
}

static size_t group_item(uint8_t i, char *out, size_t size, void *ctx)
{
    (void)ctx;
    return (size_t)snprintf(out, size, "%s=%s", DIE_IDS[i], DIE_GROUPS[i]);
}

static void emit_part(const char *body, void *ctx)
{
    (void)ctx;
    send_body(body);
}

/* RD, ST or DI, in as many frames (parts, consecutive numbers) as the dice need. */
static void send_parts(const char *kind, int has_roll, dp_item_fn item)
{
    dp_parts(kind, &seq, has_roll, roll_number, (uint8_t)DICE, item, emit_part, NULL);
}

static void handle_command(const char *body)
{
    if (strcmp(body, "HELLO?") == 0) {
        send_hello();
    } else if (strcmp(body, "STATE?") == 0) {
        send_parts("ST", 1, state_item);
    } else if (strcmp(body, "DICE?") == 0) {
        send_parts("DI", 0, group_item);
    } else if (strncmp(body, "LED ", 4) == 0) {
        /* Optional: light the LED of a die, e.g. "LED tax ff8800". Wire it up if you have one. */
    } else {
        send_numbered("ERR", "UNKNOWN unknown command");
    }
}

static void poll_sensor(void)
{
    bool any = false, all_settled = true;
    for (uint8_t i = 0; i < DICE; i++) {
        uint16_t face = faces[i];
        enum die_state now = sensor_read(i, &face);
        if (now != states[i] || (now == SETTLED && face != faces[i])) {
            char rest[40];
            states[i] = now;
            if (now == SETTLED) {
                faces[i] = face;
                snprintf(rest, sizeof rest, "%s SETTLED %u", DIE_IDS[i], face);
            } else {
                snprintf(rest, sizeof rest, "%s %s", DIE_IDS[i], STATE_NAMES[now]);
            }
            if (now != ABSENT) /* absent dice have no EV; ST reports them */
                send_numbered("EV", rest);
            if (now == ROLLING)
                moved_since_roll = true;
        }
        if (states[i] != ABSENT) {
            any = true;
            if (states[i] != SETTLED)
                all_settled = false;
        }
    }
    /* A roll is complete when something moved and every die on the reader has settled. */
    if (moved_since_roll && any && all_settled) {
        roll_number++;
        moved_since_roll = false;
        send_parts("RD", 1, reading_item);
    }
}

void setup()
{
    Serial.begin(115200);
    dp_parser_init(&parser);
    randomSeed(analogRead(0));
    for (uint8_t i = 0; i < DICE; i++) {
        states[i] = ABSENT;
        faces[i] = 0;
    }
    send_hello();
}

void loop()
{
    while (Serial.available() > 0) {
        const char *body;
        size_t len;
        if (dp_feed(&parser, (uint8_t)Serial.read(), &body, &len) == DP_FRAME)
            handle_command(body);
    }
    unsigned long now = millis();
    if (now - last_sensor >= SENSOR_PERIOD_MS) {
        last_sensor = now;
        poll_sensor();
    }
    if (now - last_heartbeat >= HEARTBEAT_MS) {
        char rest[12];
        last_heartbeat = now;
        snprintf(rest, sizeof rest, "%lu", now);
        send_numbered("HB", rest);
    }
}
