"""The rules. Pure Python: no I/O, no Flask, no threads, no clock.

State in, action in, new state and events out; illegal input is refused with a reason.
See `engine.api` for the interface every game module implements.
"""
