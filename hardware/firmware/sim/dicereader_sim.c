/*
 * Runs a dice-reader firmware build (an Uno's ELF) in simavr, in real time, with its UART on a
 * pseudo-terminal that the companion's reader can open like a USB serial port.
 *
 *   dicereader_sim FIRMWARE.elf
 *
 * Prints "PTY <path>" on stdout once the UART is connected, then obeys one command per line on
 * stdin, answering "OK <command>" when done:
 *   press    hold the demo button (Arduino pin 2 = PD2) down: every die rolls
 *   release  let it go: every die settles on a demo face
 *   reset    reset the microcontroller (as the reset button or a DTR pulse would)
 *   garble   write a burst of noise and a frame with a wrong CRC to the host's side of the line
 *   quit     stop
 * Built and driven by tests/hardware/test_firmware_sim.py (needs libsimavr-dev).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "avr_ioport.h"
#include "sim_avr.h"
#include "sim_elf.h"
#include "uart_pty.h"

#define MCU "atmega328p"
#define FREQUENCY 16000000UL
#define CHECK_EVERY 2000 /* avr_run() steps between looks at stdin and the clock */

static uint64_t wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Noise as a loose connector makes it: random bytes, then a well-formed frame whose CRC is
 * wrong. Written straight to the pty's master, between or inside the firmware's frames. */
static void garble(uart_pty_t *pty)
{
    static const char bad_frame[] = "$HB 1 999*0000\n";
    uint8_t noise[48];
    for (size_t i = 0; i < sizeof noise; i++)
        noise[i] = (uint8_t)(rand() & 0xff);
    noise[sizeof noise - 1] = '\n';
    if (write(pty->port[0].s, noise, sizeof noise) < 0 ||
        write(pty->port[0].s, bad_frame, sizeof bad_frame - 1) < 0)
        perror("garble");
}

/* Hold pin 2 at `level`: as an external level, so the sketch's pull-up (pinMode
 * INPUT_PULLUP rewrites PORTD) does not override it, and as the pin's value now. */
static void set_button(avr_t *avr, avr_irq_t *button, int level)
{
    avr_ioport_external_t external = {.name = 'D', .mask = 1 << 2, .value = level << 2};
    avr_ioctl(avr, AVR_IOCTL_IOPORT_SET_EXTERNAL('D'), &external);
    avr_raise_irq(button, level);
}

/* One stdin line → action. Returns 0 on quit. */
static int obey(const char *line, avr_t *avr, avr_irq_t *button, int *button_level,
                uart_pty_t *pty)
{
    if (strcmp(line, "press") == 0) {
        *button_level = 0;
        set_button(avr, button, 0);
    } else if (strcmp(line, "release") == 0) {
        *button_level = 1;
        set_button(avr, button, 1);
    } else if (strcmp(line, "reset") == 0) {
        avr_reset(avr);
        set_button(avr, button, *button_level); /* the finger stays where it was */
    } else if (strcmp(line, "garble") == 0) {
        garble(pty);
    } else if (strcmp(line, "quit") == 0) {
        return 0;
    } else {
        printf("ERR unknown command %s\n", line);
        fflush(stdout);
        return 1;
    }
    printf("OK %s\n", line);
    fflush(stdout);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FIRMWARE.elf\n", argv[0]);
        return 2;
    }
    elf_firmware_t firmware;
    memset(&firmware, 0, sizeof firmware);
    if (elf_read_firmware(argv[1], &firmware) != 0) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    strcpy(firmware.mmcu, MCU);
    firmware.frequency = FREQUENCY;
    avr_t *avr = avr_make_mcu_by_name(firmware.mmcu);
    if (!avr) {
        fprintf(stderr, "simavr has no %s\n", MCU);
        return 1;
    }
    avr_init(avr);
    avr_load_firmware(avr, &firmware);

    static uart_pty_t pty;
    uart_pty_init(avr, &pty);
    uart_pty_connect(&pty, '0');
    avr_irq_t *button = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 2);
    int button_level = 1; /* released: the pull-up holds the pin high */
    set_button(avr, button, button_level);
    printf("PTY %s\n", pty.port[0].slavename);
    fflush(stdout);

    /* Keep simulated time with the wall clock, so heartbeats come twice a second as on a
     * board: run ahead, then sleep. */
    uint64_t start = wall_ns(), simulated = 0;
    avr_cycle_count_t last_cycle = avr->cycle;
    char line[64];
    size_t used = 0;
    int running = 1;
    for (unsigned long step = 0; running; step++) {
        int state = avr_run(avr);
        if (state == cpu_Done || state == cpu_Crashed) {
            fprintf(stderr, "firmware stopped (state %d)\n", state);
            return 1;
        }
        if (step % CHECK_EVERY)
            continue;
        avr_cycle_count_t cycles = avr->cycle >= last_cycle ? avr->cycle - last_cycle
                                                            : avr->cycle;
        last_cycle = avr->cycle;
        simulated += cycles * 1000000000ULL / FREQUENCY;
        uint64_t elapsed = wall_ns() - start;
        int wait_ms = simulated > elapsed ? (int)((simulated - elapsed) / 1000000ULL) : 0;
        struct pollfd in = {.fd = 0, .events = POLLIN};
        if (poll(&in, 1, wait_ms) > 0) {
            ssize_t n = read(0, line + used, 1);
            if (n <= 0) /* stdin closed: the test is gone */
                break;
            if (line[used] == '\n' || used == sizeof line - 2) {
                line[used] = '\0';
                running = obey(line, avr, button, &button_level, &pty);
                used = 0;
            } else {
                used++;
            }
        }
    }
    uart_pty_stop(&pty);
    return 0;
}
