"""Runs a command on a pseudo-terminal and answers its prompts, for tests.

Reads {"argv": [...], "cwd": "...", "steps": [{"expect": "...", "keys": "..."}], "timeout": s}
as JSON on stdin. Each step waits until the screen (escape codes removed) shows `expect` after
the previous step's match, then types `keys`. Prints {"status", "screen", "missed"} as JSON.
"""
import fcntl
import json
import os
import pty
import re
import select
import struct
import termios
import sys
import time

ESCAPES = re.compile(r'\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]')


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
    deadline = time.monotonic() + spec.get('timeout', 30)
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            screen += ESCAPES.sub('', chunk.decode('utf-8', 'replace'))
        while step < len(steps):
            at = screen.find(steps[step]['expect'], consumed)
            if at == -1:
                break
            consumed = at + 1
            time.sleep(0.05)
            os.write(fd, steps[step]['keys'].encode())
            step += 1
    # A step that never came, or a command still waiting at the deadline: stop it rather than wait forever.
    done, status = os.waitpid(pid, os.WNOHANG)
    if done == 0:
        os.kill(pid, 9)
        _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    json.dump({'status': code, 'screen': screen, 'missed': [s['expect'] for s in steps[step:]]}, sys.stdout)


main()
