#!/usr/bin/env python3
"""A small CRI client for the tests: gRPC to a containerd CRI socket
(runtime.v1), with the few messages it needs encoded by hand in the
protobuf wire format (only the fields used here).

    cri_client.py --socket SOCK [--deadline SECS] COMMAND ...

commands:
    version                       the runtime's name and versions (JSON)
    image-id REF                  the image's id, or exit 1 when it is absent
    runp POD.json [--handler H]   run a pod sandbox: prints its id
    pod-state POD                 SANDBOX_READY or SANDBOX_NOTREADY
    create POD POD.json --name N --image REF [--log-path F]
           [--annotation K=V]... -- CMD [ARG...]
                                  create a container: prints its id
    start ID
    status ID                     the container's status (JSON)
    state ID                      its state: CONTAINER_RUNNING, ...
    wait-state ID STATE [--within SECS]
                                  poll until the container is in STATE
    exec ID [--timeout SECS] -- CMD [ARG...]
                                  ExecSync: the command's output, and its
                                  exit status as ours
    stop ID [--timeout SECS]
    rm ID
    stopp POD
    rmp POD
    logs FILE                     a CRI log file as "STREAM TEXT" lines
                                  (fails on a line not in the CRI format)

POD.json: {"name", "uid", "namespace", "log_directory", "cgroup_parent",
"hostname", "network": "node"|"pod", "annotations": {}}; the same file is
given to create (CreateContainer carries the pod's config again).

An RPC that fails prints "CALL: CODE: DETAILS" on stderr and exits 125.
"""
import argparse
import json
import re
import sys
import time

import grpc

RUNTIME = "/runtime.v1.RuntimeService/"
IMAGES = "/runtime.v1.ImageService/"

# Enums (runtime.v1).
NS_MODE = {"pod": 0, "container": 1, "node": 2}
CONTAINER_STATE = {0: "CONTAINER_CREATED", 1: "CONTAINER_RUNNING",
                   2: "CONTAINER_EXITED", 3: "CONTAINER_UNKNOWN"}
SANDBOX_STATE = {0: "SANDBOX_READY", 1: "SANDBOX_NOTREADY"}

RPC_FAILED = 125


# --- The wire format -------------------------------------------------------

def varint(n):
    if n < 0:
        n += 1 << 64  # int64/int32: ten bytes, two's complement
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(num, wire):
    return varint(num << 3 | wire)


def f_int(num, n):
    """A varint field (int32/int64/enum/bool), left out when zero."""
    return key(num, 0) + varint(int(n)) if n else b""


def f_bytes(num, data):
    return key(num, 2) + varint(len(data)) + data


def f_str(num, s):
    """A string field, left out when empty."""
    return f_bytes(num, s.encode()) if s else b""


def f_strs(num, items):
    return b"".join(f_bytes(num, s.encode()) for s in items)


def f_msg(num, body):
    """A message field: present (even when empty) unless body is None."""
    return b"" if body is None else f_bytes(num, body)


def f_map(num, mapping):
    """map<string, string>: one entry message (key 1, value 2) each."""
    return b"".join(f_bytes(num, f_str(1, k) + f_str(2, v))
                    for k, v in sorted((mapping or {}).items()))


def decode(data):
    """{field number: [values]}: ints for varints, bytes for the rest."""
    fields = {}
    i = 0

    def read_varint():
        nonlocal i
        n = shift = 0
        while True:
            b = data[i]
            i += 1
            n |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return n

    while i < len(data):
        tag = read_varint()
        num, wire = tag >> 3, tag & 7
        if wire == 0:
            value = read_varint()
        elif wire == 1:
            value, i = data[i:i + 8], i + 8
        elif wire == 2:
            n = read_varint()
            value, i = data[i:i + n], i + n
        elif wire == 5:
            value, i = data[i:i + 4], i + 4
        else:
            raise ValueError("wire type %d" % wire)
        fields.setdefault(num, []).append(value)
    return fields


def get(fields, num, default=None):
    v = fields.get(num)
    return v[-1] if v else default


def get_str(fields, num):
    return get(fields, num, b"").decode()


def get_int32(fields, num):
    n = get(fields, num, 0)
    return n - (1 << 64) if n >= 1 << 63 else n


# --- Messages --------------------------------------------------------------

def pod_config(pod):
    """PodSandboxConfig from our POD.json."""
    metadata = (f_str(1, pod["name"]) + f_str(2, pod.get("uid", pod["name"])) +
                f_str(3, pod.get("namespace", "default")) + f_int(4, pod.get("attempt", 0)))
    ns = f_int(1, NS_MODE[pod.get("network", "node")]) + f_int(2, NS_MODE["container"])
    security = f_msg(1, ns)
    linux = f_str(1, pod.get("cgroup_parent", "")) + f_msg(2, security)
    return (f_msg(1, metadata) + f_str(2, pod.get("hostname", "")) +
            f_str(3, pod.get("log_directory", "")) +
            f_map(6, pod.get("labels")) + f_map(7, pod.get("annotations")) +
            f_msg(8, linux))


def container_config(pod, name, image, command, log_path, annotations):
    """ContainerConfig: as a kubelet would, the pod's network for the
    container, a PID namespace of its own, the pod's IPC."""
    ns = f_int(1, NS_MODE[pod.get("network", "node")]) + f_int(2, NS_MODE["container"])
    linux = f_msg(2, f_msg(3, ns))
    return (f_msg(1, f_str(1, name)) + f_msg(2, f_str(1, image)) + f_strs(3, command) +
            f_map(10, annotations) + f_str(11, log_path) + f_msg(15, linux))


def container_status(raw):
    st = decode(get(decode(raw), 1, b""))
    return {
        "id": get_str(st, 1),
        "state": CONTAINER_STATE.get(get(st, 3, 0), str(get(st, 3, 0))),
        "created_at": get(st, 4, 0),
        "started_at": get(st, 5, 0),
        "finished_at": get(st, 6, 0),
        "exit_code": get_int32(st, 7),
        "image": get_str(decode(get(st, 8, b"")), 1),
        "reason": get_str(st, 10),
        "message": get_str(st, 11),
        "log_path": get_str(st, 15),
    }


# --- Calls -----------------------------------------------------------------

class Client:
    def __init__(self, socket, deadline):
        self.channel = grpc.insecure_channel("unix://" + socket)
        self.deadline = deadline

    def call(self, method, body, deadline=None):
        rpc = self.channel.unary_unary(method)  # bytes in, bytes out
        try:
            return rpc(body, timeout=deadline or self.deadline)
        except grpc.RpcError as e:
            print("%s: %s: %s" % (method.rsplit("/", 1)[1], e.code().name, e.details()),
                  file=sys.stderr)
            sys.exit(RPC_FAILED)

    def status(self, cid):
        return container_status(self.call(RUNTIME + "ContainerStatus", f_str(1, cid)))


def load_pod(path):
    with open(path) as f:
        return json.load(f)


def cmd_version(c, a):
    r = decode(c.call(RUNTIME + "Version", f_str(1, "v1")))
    print(json.dumps({"version": get_str(r, 1), "runtime_name": get_str(r, 2),
                      "runtime_version": get_str(r, 3),
                      "runtime_api_version": get_str(r, 4)}))


def cmd_image_id(c, a):
    r = decode(c.call(IMAGES + "ImageStatus", f_msg(1, f_str(1, a.ref))))
    image = get(r, 1)
    if image is None:
        print("%s: no such image" % a.ref, file=sys.stderr)
        sys.exit(1)
    print(get_str(decode(image), 1))


def cmd_runp(c, a):
    body = f_msg(1, pod_config(load_pod(a.pod_json))) + f_str(2, a.handler or "")
    print(get_str(decode(c.call(RUNTIME + "RunPodSandbox", body)), 1))


def cmd_pod_state(c, a):
    r = decode(c.call(RUNTIME + "PodSandboxStatus", f_str(1, a.pod)))
    print(SANDBOX_STATE[get(decode(get(r, 1, b"")), 3, 0)])


def cmd_create(c, a):
    if not a.command:
        sys.exit("create: no command")
    annotations = dict(kv.split("=", 1) for kv in a.annotation)
    pod = load_pod(a.pod_json)
    config = container_config(pod, a.name, a.image, a.command, a.log_path or "", annotations)
    body = f_str(1, a.pod) + f_msg(2, config) + f_msg(3, pod_config(pod))
    print(get_str(decode(c.call(RUNTIME + "CreateContainer", body)), 1))


def cmd_start(c, a):
    c.call(RUNTIME + "StartContainer", f_str(1, a.id))


def cmd_status(c, a):
    print(json.dumps(c.status(a.id)))


def cmd_state(c, a):
    print(c.status(a.id)["state"])


def cmd_wait_state(c, a):
    want = a.state if a.state.startswith("CONTAINER_") else "CONTAINER_" + a.state
    end = time.monotonic() + a.within
    while True:
        st = c.status(a.id)
        if st["state"] == want:
            return
        if time.monotonic() >= end:
            print("%s: not %s within %gs: %s" % (a.id, want, a.within, json.dumps(st)),
                  file=sys.stderr)
            sys.exit(1)
        time.sleep(0.05)


def cmd_exec(c, a):
    if not a.command:
        sys.exit("exec: no command")
    body = f_str(1, a.id) + f_strs(2, a.command) + f_int(3, a.timeout)
    # The call's own deadline: past the exec's timeout, not before it.
    r = decode(c.call(RUNTIME + "ExecSync", body, deadline=c.deadline + a.timeout))
    sys.stdout.buffer.write(get(r, 1, b""))
    sys.stdout.flush()
    sys.stderr.buffer.write(get(r, 2, b""))
    sys.stderr.flush()
    sys.exit(get_int32(r, 3))


def cmd_stop(c, a):
    c.call(RUNTIME + "StopContainer", f_str(1, a.id) + f_int(2, a.timeout),
           deadline=c.deadline + a.timeout)


def cmd_rm(c, a):
    c.call(RUNTIME + "RemoveContainer", f_str(1, a.id))


def cmd_stopp(c, a):
    c.call(RUNTIME + "StopPodSandbox", f_str(1, a.pod))


def cmd_rmp(c, a):
    c.call(RUNTIME + "RemovePodSandbox", f_str(1, a.pod))


# "2006-01-02T15:04:05.999999999Z07:00 stdout F text": the CRI log format.
LOG_LINE = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)) "
                      r"(stdout|stderr) ([FP]) (.*)$")


def cmd_logs(c, a):
    with open(a.file, encoding="utf-8", errors="replace") as f:
        partial = {}
        for n, line in enumerate(f.read().splitlines(), 1):
            m = LOG_LINE.match(line)
            if not m:
                print("%s:%d: not a CRI log line: %r" % (a.file, n, line), file=sys.stderr)
                sys.exit(1)
            _, stream, tag, text = m.groups()
            partial[stream] = partial.get(stream, "") + text
            if tag == "F":
                print(stream, partial.pop(stream))
        for stream, text in partial.items():
            print(stream, text)


def main():
    p = argparse.ArgumentParser(description="a small CRI client (runtime.v1)")
    p.add_argument("--socket", help="containerd's gRPC socket")
    p.add_argument("--deadline", type=float, default=30, help="seconds for each call")
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("version")
    s.set_defaults(fn=cmd_version)
    s = sub.add_parser("image-id")
    s.add_argument("ref")
    s.set_defaults(fn=cmd_image_id)
    s = sub.add_parser("runp")
    s.add_argument("pod_json")
    s.add_argument("--handler")
    s.set_defaults(fn=cmd_runp)
    s = sub.add_parser("pod-state")
    s.add_argument("pod")
    s.set_defaults(fn=cmd_pod_state)
    s = sub.add_parser("create")
    s.add_argument("pod")
    s.add_argument("pod_json")
    s.add_argument("--name", required=True)
    s.add_argument("--image", required=True)
    s.add_argument("--log-path")
    s.add_argument("--annotation", action="append", default=[])
    s.set_defaults(fn=cmd_create)
    for name, fn in (("start", cmd_start), ("status", cmd_status), ("state", cmd_state),
                     ("rm", cmd_rm)):
        s = sub.add_parser(name)
        s.add_argument("id")
        s.set_defaults(fn=fn)
    s = sub.add_parser("wait-state")
    s.add_argument("id")
    s.add_argument("state")
    s.add_argument("--within", type=float, default=10)
    s.set_defaults(fn=cmd_wait_state)
    s = sub.add_parser("exec")
    s.add_argument("id")
    s.add_argument("--timeout", type=int, default=10)
    s.set_defaults(fn=cmd_exec)
    s = sub.add_parser("stop")
    s.add_argument("id")
    s.add_argument("--timeout", type=int, default=0)
    s.set_defaults(fn=cmd_stop)
    for name, fn in (("stopp", cmd_stopp), ("rmp", cmd_rmp)):
        s = sub.add_parser(name)
        s.add_argument("pod")
        s.set_defaults(fn=fn)
    s = sub.add_parser("logs")
    s.add_argument("file")
    s.set_defaults(fn=cmd_logs)
    # The container's or the exec's command: all after "--".
    argv = sys.argv[1:]
    command = []
    if "--" in argv:
        command = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    a = p.parse_args(argv)
    a.command = command
    if a.cmd != "logs" and not a.socket:
        p.error("--socket is required")
    a.fn(Client(a.socket, a.deadline) if a.socket else None, a)


if __name__ == "__main__":
    main()
