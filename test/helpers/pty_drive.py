"""Runs a command on a pseudo-terminal and answers its prompts, for tests.

Reads {"argv": [...], "cwd": "...", "steps": [{"expect": "...", "keys": "..."}], "step_timeout": s,
"timeout": s} as JSON on stdin. Each step waits until the screen (escape codes removed) shows
`expect` after the previous step's match and the command reads the terminal key by key (a prompt
puts it in raw mode), then types `keys`. After the last step it waits for the command to exit.
Each of these waits gives up after `step_timeout` seconds, the whole run after `timeout`: they are
last guards against a hang, not budgets. Prints {"status", "screen", "missed", "timedOut"} as JSON;
`timedOut` says what was awaited when a guard ran out, else null.
"""
import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import termios
import sys
import time

ESCAPES = re.compile(r'\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]')


def reads_keys(fd):
    """Whether the terminal is in raw mode. On Linux the controlling side reports the terminal's modes."""
    lflag = termios.tcgetattr(fd)[3]
    return not lflag & (termios.ICANON | termios.ECHO)


def main():
    spec = json.load(sys.stdin)
    pid, fd = pty.fork()
    if pid == 0:
        # A terminal of 40 rows of 120 columns: a new pseudo-terminal has none, and prompts wrap to its width.
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack('HHHH', 40, 120, 0, 0))
        os.chdir(spec['cwd'])
        os.execvp(spec['argv'][0], spec['argv'])
    screen, consumed, step = '', 0, 0
    steps = spec['steps']
    step_timeout = spec.get('step_timeout', 30)
    start = time.monotonic()
    end = start + spec.get('timeout', 120)
    step_deadline = start + step_timeout
    awaited = None
    timed_out = None
    while True:
        now = time.monotonic()
        if now >= step_deadline or now >= end:
            waited = step_timeout if now >= step_deadline else spec.get('timeout', 120)
            timed_out = f'waited {waited} s for {awaited or "the command to exit"}'
            break
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            screen += ESCAPES.sub('', chunk.decode('utf-8', 'replace'))
        while step < len(steps):
            expect = steps[step]['expect']
            at = screen.find(expect, consumed)
            if at == -1:
                awaited = repr(expect)
                break
            # Keys typed while the terminal is still in line mode would be echoed and translated
            # (a carriage return read as a newline): wait until the prompt reads them raw.
            if not reads_keys(fd):
                awaited = f'raw mode once {expect!r} was shown'
                break
            consumed = at + 1
            os.write(fd, steps[step]['keys'].encode())
            step += 1
            awaited = None
            step_deadline = time.monotonic() + step_timeout
    # The terminal closes as the command exits, a moment before it can be reaped: wait for the exit.
    # A step that never came, or a command still running at a guard: stop it rather than wait forever.
    until = time.monotonic() + (0 if timed_out else step_timeout)
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done != 0:
            break
        if time.monotonic() >= until:
            timed_out = timed_out or f'waited {step_timeout} s for the command to exit once its terminal closed'
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            break
        time.sleep(0.01)  # the interval of polling for the exit
    code = os.waitstatus_to_exitcode(status)
    json.dump({'status': code, 'screen': screen, 'missed': [s['expect'] for s in steps[step:]], 'timedOut': timed_out}, sys.stdout)


main()
