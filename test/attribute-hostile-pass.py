#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A hostile pass over what photonic-rails-sim takes from the command line (issues 32 and 34):
every attribute of the job programs' types (the user doc's table) and the global values, with
values of every bad kind (non-numbers, negative, huge, 2^64, 1e400, nan and inf, below 1 ns,
objects) and pairs that break the models' rules, on a 4-rank ring all-reduce of 16 MiB with
one GPU and two NIC ports per server, on eps, ocs and eps-clos (radix 4), and where they act on
emulated and the flow model. Not a CTest (about 2,300 runs, 5-10 minutes on 2 cores): run it
by hand, in each build, before resolving an attribute issue:

    test/attribute-hostile-pass.py build                  # or build-sanitize
Fails (exit status 1) if a run exits other than 0 or 1 (an abort, a crash, a sanitizer
report, a hang past 120 s); lists the runs that exit 0 with the default's iteration times, for
a reader to tell a value without effect on this job from one silently ignored."""
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = os.path.join(os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build"), "bin",
                   "photonic-rails-sim")
OUT = tempfile.mkdtemp(prefix="attribute-hostile-")
DAG = os.path.join(OUT, "allreduce.json")
json.dump({"format": "photonic-rails-dag", "version": 1, "ranks": 4,
           "groups": {"all": [0, 1, 2, 3]},
           "ops": [{"rank": r, "id": 0, "type": "allreduce", "group": "all",
                    "bytes": 16777216, "algorithm": "ring"} for r in range(4)]},
          open(DAG, "w"))
BASE = ["--dag=" + DAG, "--gpusPerServer=1", "--nicPorts=2", "--progress=0"]
FABRICS = {"eps": ["--fabric=eps"], "ocs": ["--fabric=ocs"],
           "eps-clos": ["--fabric=eps-clos", "--radix=4"], "emulated": ["--fabric=emulated"],
           "flow": ["--fabric=eps", "--network=flow"]}
VALUES = {
    "integer": ["abc", "-1", "1e3", "1.5", "", "0", "1", "2", "16", "4294967295", "4294967296",
                "18446744073709551615", "18446744073709551616", "99999999999999999999999"],
    "number": ["abc", "nan", "inf", "-inf", "1e400", "1e-400", "-1", "0", "0.5", "1", "1e308"],
    "time": ["abc", "-1ns", "0", "1ns", "0.5ns", "1e400s", "1e19ns", "1e6s", "1e-400s", "5",
             "5min", "+5ns", "1ms"],
    "rate": ["abc", "0bps", "1bps", "0.5bps", "1e3Gbps", "99999999999999999999Gbps",
             "1000000Gbps", "100Mbps", "1Tbps"],
    "bool": ["true", "false", "yes", "2", ""],
    "other": ["x", "0", "", "Hold", "Drop", "Foo", "(", "^A", "a b", "ring"],
}
PAIRS = [["EpsSwitch::EcnKmin=500000"], ["EpsSwitch::EcnKmax=0"], ["EpsSwitch::PfcXon=100000000"],
         ["EpsSwitch::PfcXoff=18446744073709551615"], ["EpsSwitch::PfcXoff=1000", "EpsSwitch::PfcXon=999"],
         ["EpsSwitch::PfcXoff=1000", "EpsSwitch::PfcXon=1000"],
         ["EpsSwitch::PfcEnabled=false", "EpsSwitch::PfcXoff=1000"], ["EpsSwitch::DtAlpha=1"],
         ["EpsSwitch::PfcEnabled=false", "EpsSwitch::DtAlpha=1"],
         ["EpsSwitch::PfcEnabled=false", "EpsSwitch::BufferSize=9013"],
         ["EpsSwitch::BufferSize=236847"], ["EpsSwitch::EcnEnabled=false", "EpsSwitch::EcnPmax=1"],
         ["EpsSwitch::EcnEnabled=false", "RailTransport::DcqcnG=0.5"],
         ["RailTransport::DeviceQueueFrames=50", "RailTransport::AckInterval=1"],
         ["EpsSwitch::ProcessingDelay=1ms"], ["RailNetDevice::InterframeGap=1ms"]]
GLOBALS = {"RngRun": ["1", "abc", "-1"], "RngSeed": ["0", "1", "4294944443", "abc"],
           "SchedulerType": ["ns3::Node", "ns3::Nothing", "ns3::MapScheduler", ""],
           "SimulatorImplementationType": ["ns3::RealtimeSimulatorImpl", "x"],
           "ChecksumEnabled": ["1", "x"]}


def attributes():
    """The doc table's attributes, each with the kind of its default (--PrintAttributes)."""
    doc = open(os.path.join(ROOT, "doc", "photonic-rails-user.rst")).read()
    table = doc[doc.index(".. attribute-audit-begin"):doc.index(".. attribute-audit-end")]
    names = re.findall(r"^``(ns3::[^`]+)``", table, re.M)
    kinds = {}
    for t in sorted({n.rsplit("::", 1)[0] for n in names}):
        shown = subprocess.run([SIM, "--PrintAttributes=" + t], capture_output=True, text=True)
        for name, default in re.findall(r"--(ns3::\S+?)=\[(.*)\]", shown.stdout):
            kinds[name] = ("time" if re.fullmatch(r"[+-][0-9.e+]+ns", default) else
                           "rate" if default.endswith("bps") else
                           "bool" if default in ("true", "false") else
                           "integer" if re.fullmatch(r"-?[0-9]+", default) else
                           "number" if re.fullmatch(r"[0-9.e+-]+", default) else "other")
    return [(n, kinds.get(n, "other")) for n in names]


def run(job):
    i, args, fabric = job
    out = os.path.join(OUT, str(i))
    try:
        p = subprocess.run([SIM] + BASE + FABRICS[fabric] + ["--out=" + out] + args,
                           capture_output=True, text=True, timeout=120)
        rc, last = p.returncode, (p.stderr.strip().splitlines() or [""])[-1]
    except subprocess.TimeoutExpired:
        rc, last = "timeout", ""
    times = None
    if rc == 0:
        times = json.load(open(os.path.join(out, "summary.json")))["iteration_times_s"]
    return args, fabric, rc, last, times


def main():
    jobs = []
    for name, kind in attributes():
        fabrics = ["eps", "ocs", "eps-clos"] + (["emulated"] if "Opus" in name else []) + \
                  (["flow"] if "Delay" in name else [])
        jobs += [(["--%s=%s" % (name, v)], f) for v in VALUES[kind] for f in fabrics]
    jobs += [(["--ns3::" + a for a in pair], f) for pair in PAIRS for f in ("eps", "ocs", "eps-clos")]
    jobs += [(["--%s=%s" % (g, v)], "eps") for g, vs in GLOBALS.items() for v in vs]
    defaults = {f: run((-1 - n, [], f))[4] for n, f in enumerate(FABRICS)}
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run, [(i, a, f) for i, (a, f) in enumerate(jobs)]))
    bad = [r for r in results if r[2] not in (0, 1)]
    same = [r for r in results if r[2] == 0 and r[4] == defaults[r[1]]]
    print("%d runs: %d exit 0, %d exit 1, %d otherwise (output in %s)"
          % (len(results), sum(r[2] == 0 for r in results), sum(r[2] == 1 for r in results),
             len(bad), OUT))
    for args, fabric, rc, last, _ in bad:
        print("FAIL %s on %s: exit %s: %s" % (" ".join(args), fabric, rc, last))
    print("exit 0 with the default's iteration times (no effect on this job, or ignored?):")
    for args, fabric, _, _, _ in same:
        print("  %s on %s" % (" ".join(args), fabric))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
