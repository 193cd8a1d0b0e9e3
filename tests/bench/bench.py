#!/usr/bin/env python3
"""ward against crun and runc, in one run, as pairwise ratios (issue 28).

    bench.py WARD [--rounds N] [--parallel N] [--only SCENARIO,...]

Scenarios, each interleaved round by round (every runtime once per round, in
a shuffled order, so that machine noise hits all of them alike):
  plain      `run true`, runc's spec (no seccomp in the config)
  engine     `run true`, the same plus Podman 4.3's seccomp profile
  exec       `exec ID true` into a running container
  lifecycle  create + start + delete of `true`, detached
  parallel   N (default 64) `run true` at once; per container: wall / N
  egress     `run true` under strict in a network namespace of its own (as an
             engine gives one), without an egress list, with one of addresses,
             and with one naming a host (the DNS gate runs): ratios to the first
and the peak RSS of the runtime process over a `run true` (GNU time).

Runtimes: ward under compat, baseline and strict (ward's own), crun and runc
when installed. Wall time is read around each call; CPU time is the
children's rusage (this process is their subreaper, so a supervisor that
outlives its parent is counted too once it ends).

crun refuses hybrid cgroup hosts: there every runtime runs inside the same
wrapper (a private mount namespace and a tmpfs mounted over a directory),
which for crun is /sys/fs/cgroup/unified and for the others a scratch
directory, so that both sides pay the wrapper alike. Timings are reported,
never asserted: this is not a test.
"""
import argparse
import ctypes
import json
import os
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))


def subreaper():
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER


def reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


class Bench:
    def __init__(self, ward, work):
        self.work = work
        os.makedirs(f"{work}/bin")
        self.ward = f"{work}/bin/ward"
        # As installed (stripped), as crun and runc come from Debian.
        if subprocess.run(["strip", "-o", self.ward, ward]).returncode != 0:
            shutil.copy(ward, self.ward)
        self.hybrid = (os.path.isdir("/sys/fs/cgroup/unified") and
                       subprocess.run(["stat", "-f", "-c", "%T", "/sys/fs/cgroup"],
                                      capture_output=True, text=True).stdout.strip()
                       != "cgroup2fs")
        os.makedirs(f"{work}/hide")
        self.runtimes = ["ward-compat", "ward-baseline", "ward-strict"]
        for rt in ("crun", "runc"):
            if shutil.which(rt):
                self.runtimes.append(rt)
        self.seq = 0

    def bundle(self, name, seccomp):
        b = f"{self.work}/{name}"
        subprocess.run(["sh", f"{TOP}/tests/helpers/mkrootfs.sh",
                        os.environ.get("BUSYBOX", "/bin/busybox"), f"{b}/rootfs"],
                       check=True, stdout=subprocess.DEVNULL)
        # runc's spec: the template every runtime here accepts as it is.
        subprocess.run(["runc", "spec", "--bundle", b] if shutil.which("runc") else
                       [self.ward, "spec", "--bundle", b], check=True)
        with open(f"{b}/config.json") as f:
            c = json.load(f)
        c["process"]["args"] = ["/bin/true"]
        c["process"]["terminal"] = False
        c["ociVersion"] = "1.0.2"  # crun 1.8 refuses newer
        c["linux"].pop("seccomp", None)
        if seccomp:
            with open(f"{TOP}/tests/fixtures/podman-run-busybox.json") as f:
                c["linux"]["seccomp"] = json.load(f)["linux"]["seccomp"]
        with open(f"{b}/config.json", "w") as f:
            json.dump(c, f)
        return b

    def egress_setup(self):
        """The egress scenario's policies: per profile, no list, a list of
        addresses, a list naming a host (the DNS gate runs). baseline joins a
        network namespace as an engine gives one; strict, in one of its own
        (its user namespace cannot join the host's), is connected by pasta
        once it has a list. Returns the joining bundle."""
        self.netns = f"wardbench{os.getpid()}"
        subprocess.run(["ip", "netns", "add", self.netns], check=True)
        subprocess.run(["ip", "-n", self.netns, "link", "set", "lo", "up"], check=True)
        b = self.bundle("egress", False)
        with open(f"{b}/config.json") as f:
            c = json.load(f)
        for ns in c["linux"]["namespaces"]:
            if ns["type"] == "network":
                ns["path"] = f"/var/run/netns/{self.netns}"
        with open(f"{b}/config.json", "w") as f:
            json.dump(c, f)
        lists = {"nolist": None, "addrs": ["10.1.0.0/16:443/tcp", "192.0.2.1:53"],
                 "name": ["registry.example:443/tcp"]}
        self.policies = {}
        for prof in ("baseline", "strict"):
            for name, allow in lists.items():
                pol = {"allowAlways": ["join-network"], "dnsUpstreams": ["192.0.2.53"]}
                if allow:
                    pol["egress"] = {prof: {"allow": allow}}
                path = f"{self.work}/policy-{prof}-{name}.json"
                with open(path, "w") as f:
                    json.dump(pol, f)
                self.policies[f"ward-{prof}-{name}"] = (prof, path)
        return b

    def egress_teardown(self):
        if getattr(self, "netns", None):
            subprocess.run(["ip", "netns", "del", self.netns])

    def argv(self, rt, *args):
        if rt in getattr(self, "policies", {}):
            prof, pol = self.policies[rt]
            cmd = [self.ward, "--profile", prof, "--policy", pol, "--root",
                   f"{self.work}/state-ward"]
        elif rt.startswith("ward-"):
            cmd = [self.ward, "--profile", rt[5:], "--root", f"{self.work}/state-ward"]
        else:
            cmd = [rt, "--root", f"{self.work}/state-{rt}"]
        cmd += list(args)
        if not self.hybrid:
            return cmd
        hide = "/sys/fs/cgroup/unified" if rt == "crun" else f"{self.work}/hide"
        return ["unshare", "-m", "sh", "-c",
                'mount --make-rprivate / && mount -t tmpfs none "$0" && exec "$@"',
                hide] + cmd

    def call(self, rt, *args, check=True):
        """(wall s, cpu s) of one call of rt."""
        argv = self.argv(rt, *args)
        c0, t0 = cpu_children(), time.perf_counter()
        # stderr to a file, not a pipe: a detached container (run -d)
        # inherits it and would hold a pipe open for as long as it lives.
        with tempfile.TemporaryFile() as err:
            r = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=err)
            t1 = time.perf_counter()
            reap()
            if check and r.returncode != 0:
                err.seek(0)
                raise RuntimeError(f"{rt} {' '.join(args)}: exit {r.returncode}: "
                                   f"{err.read().decode(errors='replace').strip()[:300]}")
        return t1 - t0, cpu_children() - c0

    def new_id(self, rt):
        self.seq += 1
        return f"b{self.seq}-{rt}"

    # scenarios: each returns (wall, cpu) of one measured operation
    def run_true(self, rt, bundle):
        return self.call(rt, "run", "--bundle", bundle, self.new_id(rt))

    def lifecycle(self, rt, bundle):
        i = self.new_id(rt)
        w1, c1 = self.call(rt, "create", "--bundle", bundle, i)
        w2, c2 = self.call(rt, "start", i)
        w3, c3 = self.call(rt, "delete", "--force", i)
        return w1 + w2 + w3, c1 + c2 + c3

    def exec_true(self, rt, ids):
        return self.call(rt, "exec", ids[rt], "/bin/true")

    def parallel(self, rt, bundle, n):
        out = []

        def one():
            out.append(self.call(rt, "run", "--bundle", bundle, self.new_id(rt)))

        c0, t0 = cpu_children(), time.perf_counter()
        threads = [threading.Thread(target=one) for _ in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        t1 = time.perf_counter()
        reap()
        if len(out) != n:
            raise RuntimeError(f"{rt}: {n - len(out)} of {n} parallel runs failed")
        return (t1 - t0) / n, (cpu_children() - c0) / n

    def peak_rss(self, rt, bundle):
        argv = self.argv(rt, "run", "--bundle", bundle, self.new_id(rt))
        r = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        reap()
        return int(r.stderr.strip().splitlines()[-1])


def rounds_of(b, name, fn, rounds, runtimes=None):
    data = {rt: [] for rt in (runtimes or b.runtimes)}
    for rt in list(data):  # warm-up, and whether each can run it at all
        try:
            fn(rt)
        except RuntimeError as e:
            print(f"  {rt} skipped in {name}: {e}")
            data.pop(rt)
    for _ in range(rounds):
        order = list(data)
        random.shuffle(order)
        for rt in order:
            data[rt].append(fn(rt))
    return data


def table(name, data, against=("crun", "runc")):
    print(f"\n{name}: median wall / cpu in ms, and ratios by median")
    med = {rt: (statistics.median(w for w, _ in v) * 1e3,
                statistics.median(c for _, c in v) * 1e3) for rt, v in data.items()}
    others = [rt for rt in against if rt in med]
    hdr = f"  {'runtime':14} {'wall':>8} {'cpu':>8}"
    for o in others:
        hdr += f" {'/' + o + ' wall':>11} {'cpu':>6}"
    print(hdr)
    for rt, (w, c) in med.items():
        line = f"  {rt:14} {w:8.2f} {c:8.2f}"
        for o in others:
            line += f" {w / med[o][0]:11.2f} {c / med[o][1]:6.2f}"
        print(line)
    return med


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ward")
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--parallel", type=int, default=64)
    ap.add_argument("--only", default="plain,engine,exec,lifecycle,parallel,egress,rss")
    a = ap.parse_args()
    only = a.only.split(",")
    subreaper()
    # SIGTERM as an exit, so that the finally below deletes the detached
    # containers and the work directory.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = tempfile.mkdtemp(prefix="ward-bench.")
    b = Bench(os.path.abspath(a.ward), work)
    print(f"runtimes: {', '.join(b.runtimes)}; {a.rounds} rounds; "
          f"{'hybrid host: every runtime in the same unshare wrapper' if b.hybrid else 'cgroup2 host'}")
    plain = b.bundle("plain", False)
    engine = b.bundle("engine", True)
    ids = {}
    try:
        single = None
        if "plain" in only:
            single = table("run true, plain config",
                           rounds_of(b, "plain", lambda rt: b.run_true(rt, plain), a.rounds))
        if "engine" in only:
            table("run true, engine config (Podman's seccomp profile)",
                  rounds_of(b, "engine", lambda rt: b.run_true(rt, engine), a.rounds))
        if "exec" in only:
            sleeper = b.bundle("sleeper", False)
            with open(f"{sleeper}/config.json") as f:
                c = json.load(f)
            c["process"]["args"] = ["/bin/sleep", "3600"]
            with open(f"{sleeper}/config.json", "w") as f:
                json.dump(c, f)
            for rt in b.runtimes:
                ids[rt] = b.new_id(rt)
                b.call(rt, "run", "--detach", "--bundle", sleeper, ids[rt])
            table("exec true", rounds_of(b, "exec", lambda rt: b.exec_true(rt, ids), a.rounds))
        if "lifecycle" in only:
            table("create + start + delete",
                  rounds_of(b, "lifecycle", lambda rt: b.lifecycle(rt, plain), a.rounds))
        if "parallel" in only:
            n = a.parallel
            med = table(f"{n} x run true in parallel (per container: wall / {n}, cpu / {n})",
                        rounds_of(b, "parallel", lambda rt: b.parallel(rt, plain, n),
                                  max(1, a.rounds // 10)))
            if single:
                print("  per container against one run alone (plain, wall):")
                for rt, (w, _) in med.items():
                    if rt in single:
                        print(f"    {rt:14} {w / single[rt][0]:.2f}")
        if "egress" in only:
            joined = b.egress_setup()
            v = [f"ward-baseline-{n}" for n in ("nolist", "addrs", "name")]
            table("run true, baseline in a network namespace given by path: egress lists",
                  rounds_of(b, "egress", lambda rt: b.run_true(rt, joined), a.rounds, v),
                  against=(v[0],))
            v = [f"ward-strict-{n}" for n in ("nolist", "addrs", "name")]
            table("run true, strict (a list brings pasta): egress lists",
                  rounds_of(b, "egress", lambda rt: b.run_true(rt, plain), a.rounds, v),
                  against=(v[0],))
        if "rss" in only:
            print("\npeak RSS of the runtime process over `run true` (KiB, max of 10)")
            for rt in b.runtimes:
                print(f"  {rt:14} {max(b.peak_rss(rt, plain) for _ in range(10)):8d}")
    finally:
        for rt, i in ids.items():
            b.call(rt, "delete", "--force", i, check=False)
        b.egress_teardown()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
