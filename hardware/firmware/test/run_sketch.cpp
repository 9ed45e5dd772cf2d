/*
 * Runs the Arduino sketch on the host with a simulated board, for
 * tests/hardware/test_dice_firmware.py. Reads a script on stdin, one command a line:
 *   wait MS        advance the clock MS milliseconds, calling loop() every millisecond
 *   send BODY      the host sends the frame $BODY*CRC\n
 *   raw TEXT       the host sends TEXT as is (noise)
 *   button 0|1     press (1) or release (0) the demo "roll" button on pin 2
 * Everything the sketch writes to Serial goes to stdout.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INPUT_PULLUP 2
#define LOW 0
#define HIGH 1

static unsigned long host_millis = 0;
static int host_button = 0;
static char host_input[8192];
static size_t host_in_len = 0, host_in_pos = 0;

struct HostSerial {
    void begin(unsigned long) {}
    int available() { return (int)(host_in_len - host_in_pos); }
    int read() { return host_in_pos < host_in_len ? (uint8_t)host_input[host_in_pos++] : -1; }
    size_t write(const uint8_t *data, size_t n) { return fwrite(data, 1, n, stdout); }
};
static HostSerial Serial;
static inline void pinMode(uint8_t, uint8_t) {}
static inline int digitalRead(uint8_t pin) { return pin == 2 && host_button ? LOW : HIGH; }
static inline int analogRead(uint8_t) { return 0; }
static inline long random(long low, long high) { return low + rand() % (high - low); }
static inline void randomSeed(unsigned long s) { srand((unsigned)s); }
static inline unsigned long millis() { return host_millis; }

#include "dicereader.ino"

static void host_send(const char *text)
{
    size_t n = strlen(text);
    if (host_in_len + n < sizeof host_input) {
        memcpy(host_input + host_in_len, text, n);
        host_in_len += n;
    }
}

int main(void)
{
    char line[256];
    setup();
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "wait ", 5) == 0) {
            long ms = atol(line + 5);
            for (long i = 0; i < ms; i++) {
                host_millis++;
                loop();
            }
        } else if (strncmp(line, "send ", 5) == 0) {
            char frame[DP_MAX_FRAME + 1];
            if (dp_encode(line + 5, frame, sizeof frame))
                host_send(frame);
        } else if (strncmp(line, "raw ", 4) == 0) {
            host_send(line + 4);
        } else if (strncmp(line, "button ", 7) == 0) {
            host_button = atoi(line + 7);
        }
    }
    return 0;
}
