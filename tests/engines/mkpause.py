#!/usr/bin/env python3
"""Add a pod sandbox ("pause") image to an OCI archive made by mkimage.py:
the same layer, with CMD as the image's command, named REF. The archive
written keeps the first image too, so that one import brings both.

    mkpause.py IN.tar OUT.tar REF CMD [ARG...]
"""
import hashlib
import io
import json
import sys
import tarfile


def tag(ref):
    name = ref.rsplit("/", 1)[-1]
    return name.rsplit(":", 1)[1] if ":" in name else "latest"


def main():
    src, out, ref = sys.argv[1:4]
    cmd = sys.argv[4:]
    if not cmd:
        sys.exit("mkpause.py: no command")
    with tarfile.open(src) as tar:
        files = {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}

    def read(digest):
        return files["blobs/sha256/" + digest.split(":", 1)[1]]

    def add(data):
        digest = hashlib.sha256(data).hexdigest()
        files["blobs/sha256/" + digest] = data
        return "sha256:" + digest, len(data)

    index = json.loads(files["index.json"])
    first = index["manifests"][0]
    manifest = json.loads(read(first["digest"]))
    config = json.loads(read(manifest["config"]["digest"]))
    config["config"]["Cmd"] = cmd
    config["config"].pop("Entrypoint", None)
    digest, size = add(json.dumps(config).encode())
    manifest["config"] = dict(manifest["config"], digest=digest, size=size)
    digest, size = add(json.dumps(manifest).encode())
    index["manifests"].append({
        "mediaType": first["mediaType"], "digest": digest, "size": size,
        "annotations": {"io.containerd.image.name": ref,
                        "org.opencontainers.image.ref.name": tag(ref)},
    })
    files["index.json"] = json.dumps(index).encode()
    with tarfile.open(out, "w") as tar:
        for name in sorted(files):
            info = tarfile.TarInfo(name)
            info.size = len(files[name])
            tar.addfile(info, io.BytesIO(files[name]))


if __name__ == "__main__":
    main()
