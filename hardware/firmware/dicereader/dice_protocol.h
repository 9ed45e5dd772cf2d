/*
 * Dice-reader protocol framing and CRC in plain C (docs/dice-protocol.md).
 *
 * Used by the Arduino sketch (dicereader.ino) and unit-tested on the host with gcc against
 * the same test vectors as the Python parser (tests/hardware/dice/vectors.json).
 * No heap, no stdio: safe for an 8-bit AVR with 2 KB of RAM.
 */
#ifndef DICE_PROTOCOL_H
#define DICE_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DP_MAX_FRAME 120                 /* bytes from '$' to '\n' inclusive */
#define DP_MAX_CONTENT (DP_MAX_FRAME - 2) /* bytes between '$' and '\n' */
#define DP_MAX_BODY (DP_MAX_FRAME - 7)    /* '$' BODY '*' 4 hex '\n' */
#define DP_PROTOCOL_VERSION 2
#define DP_MAX_PARTS 99                  /* p=<i>/<n>: n is at most 99 */

/* CRC-16/XMODEM: poly 0x1021, init 0, no reflection; dp_crc16("123456789") == 0x31C3. */
uint16_t dp_crc16(const uint8_t *data, size_t len);

/* Writes "$BODY*CRC\n" and a terminating NUL into out. Returns the frame length without
 * the NUL, or 0 if the body is empty, too long, not printable ASCII, holds '$' or '*',
 * or out (outsize bytes) is too small. */
size_t dp_encode(const char *body, char *out, size_t outsize);

/* Incremental framer: feed it one byte at a time. */
enum dp_result {
    DP_NONE = 0,    /* nothing complete yet */
    DP_FRAME = 1,   /* a frame whose CRC checked: body/body_len are set */
    DP_CRC = 2,     /* a well-formed frame whose CRC did not match: dropped */
    DP_GARBAGE = 3  /* bytes outside frames, a frame cut by '$', overlong or malformed */
};

typedef struct {
    uint8_t state;   /* idle, in frame, skipping an overlong frame */
    uint8_t junk;    /* the current run outside frames holds something besides CR/LF */
    uint8_t len;     /* bytes of content collected after '$' */
    char buf[DP_MAX_CONTENT + 1];
} dp_parser;

void dp_parser_init(dp_parser *p);

/* Feed one byte. On DP_FRAME, *body points at the NUL-terminated BODY inside the parser
 * (valid until the next call) and *body_len is its length. */
enum dp_result dp_feed(dp_parser *p, uint8_t byte, const char **body, size_t *body_len);

/* Version 2: the frames of one message that may not fit a frame (RD, ST: has_roll = 1;
 * DI: has_roll = 0). item(index, out, size, ctx) writes the index-th item ("n1=6",
 * "n1=SETTLED:6", "n1=neutral") for index 0..count-1 and returns its length (0: skip
 * that index). Items are packed greedily, leaving room for the longest header (sequence
 * 65535, roll 4294967295, p=99/99), exactly as hardware/dice/protocol.py split_items does
 * (shared vectors: "parts"). For each part emit(body, ctx) gets
 * "KIND <seq> [r=<roll>] [p=<i>/<n>] item item..."; p= only when there is more than one
 * part; *seq is the first part's number and is advanced by the number of parts (wrapping).
 * Returns the number of parts, 0 (nothing sent) if no item, an item too long or more than
 * DP_MAX_PARTS parts. */
typedef size_t (*dp_item_fn)(uint8_t index, char *out, size_t size, void *ctx);
typedef void (*dp_emit_fn)(const char *body, void *ctx);
uint8_t dp_parts(const char *kind, uint16_t *seq, int has_roll, uint32_t roll, uint8_t count,
                 dp_item_fn item, dp_emit_fn emit, void *ctx);

#ifdef __cplusplus
}
#endif

#endif
