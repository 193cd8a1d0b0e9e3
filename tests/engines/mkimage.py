#!/usr/bin/env python3
"""Build an OCI image archive (what `ctr images import` takes) of a busybox
rootfs, offline: one gzip layer, an image config, a manifest, index.json.

    mkimage.py BUSYBOX MKROOTFS REF OUT.tar
"""
import gzip
import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile


def blob(tar, data):
    digest = hashlib.sha256(data).hexdigest()
    info = tarfile.TarInfo("blobs/sha256/" + digest)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))
    return "sha256:" + digest, len(data)


def main():
    busybox, mkrootfs, ref, out = sys.argv[1:5]
    with tempfile.TemporaryDirectory() as tmp:
        rootfs = os.path.join(tmp, "rootfs")
        subprocess.run([mkrootfs, busybox, rootfs], check=True, stdout=subprocess.DEVNULL)
        raw = io.BytesIO()
        with tarfile.open(fileobj=raw, mode="w") as layer:
            layer.add(rootfs, arcname=".")
        diff_id = "sha256:" + hashlib.sha256(raw.getvalue()).hexdigest()
        gz = gzip.compress(raw.getvalue(), mtime=0)
    config = json.dumps({
        "architecture": "amd64", "os": "linux",
        "config": {"Cmd": ["sh"], "Env": ["PATH=/bin:/sbin"]},
        "rootfs": {"type": "layers", "diff_ids": [diff_id]},
    }).encode()
    with tarfile.open(out, "w") as tar:
        layer_digest, layer_size = blob(tar, gz)
        config_digest, config_size = blob(tar, config)
        manifest = json.dumps({
            "schemaVersion": 2,
            "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                       "digest": config_digest, "size": config_size},
            "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip",
                        "digest": layer_digest, "size": layer_size}],
        }).encode()
        manifest_digest, manifest_size = blob(tar, manifest)
        for name, data in (
            ("oci-layout", json.dumps({"imageLayoutVersion": "1.0.0"}).encode()),
            ("index.json", json.dumps({
                "schemaVersion": 2,
                "manifests": [{"mediaType": "application/vnd.oci.image.manifest.v1+json",
                               "digest": manifest_digest, "size": manifest_size,
                               "annotations": {"io.containerd.image.name": ref,
                                               "org.opencontainers.image.ref.name": "latest"}}],
            }).encode()),
        ):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


if __name__ == "__main__":
    main()
