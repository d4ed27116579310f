#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""scrape_textfile.py NODE_EXPORTER DIR FILE: run Debian's node_exporter
with its textfile collector alone on DIR, on a free localhost port,
scrape /metrics and check that every sample of FILE is served with the
same value, and that the collector read the file without error.  Prints
one line per mismatch and a last summary line; exit 0 when all match,
1 otherwise.  The exporter is stopped whatever happens."""

import socket
import subprocess
import sys
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def samples(text):
    """{series: value} of every sample line of the text format."""
    out = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        series, _, value = line.rpartition(" ")
        out[series] = float(value)
    return out


def scrape(url, proc):
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("node_exporter exited %d" % proc.returncode)
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                return r.read().decode()
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("no answer from %s in 20 s" % url)


def main():
    exporter, directory, path = sys.argv[1:4]
    port = free_port()
    proc = subprocess.Popen([exporter, "--collector.disable-defaults",
                             "--collector.textfile",
                             "--collector.textfile.directory=" + directory,
                             "--web.listen-address=127.0.0.1:%d" % port],
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        served = samples(scrape("http://127.0.0.1:%d/metrics" % port, proc))
    except RuntimeError as e:
        proc.kill()
        print("%s: %s" % (e, proc.communicate()[1].decode()[-300:]))
        return 1
    proc.kill()
    proc.wait()
    with open(path) as f:
        want = samples(f.read())
    bad = 0
    for series, value in want.items():
        if served.get(series) != value:
            print("%s: file %s, served %s" % (series, value,
                                               served.get(series)))
            bad += 1
    err = served.get("node_textfile_scrape_error")
    if err != 0:
        print("node_textfile_scrape_error %s" % err)
        bad += 1
    print("%d kstack series served with the file's values, %d wrong, "
          "node_textfile_scrape_error %s" % (len(want) - bad, bad, err))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
