#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// Run the pinned WebAssembly Yosys (npm @yowasp/yosys, see package-lock.json) like a CLI:
//
//   node synth/yosys.mjs [--mount PATH]... [--out DIR]... [--] <yosys args...>
//
// @yowasp/yosys has no binary and no access to the host filesystem: its documented API is
// runYosys(args, files, options), where `files` is an in-memory tree that becomes Yosys's
// "/" (which is also its working directory), and the tree left after the run is returned.
// This wrapper builds that tree from the host and writes the results back:
//
//   - The virtual "/" is the host's current directory, so give Yosys paths RELATIVE to the
//     current directory (absolute host paths and paths with ".." do not exist inside).
//   - --mount PATH (repeatable; a file or a directory, relative to the current directory)
//     copies PATH into the tree. Without any --mount, the whole current directory is copied,
//     except .git, node_modules, build, out and other dot-directories.
//   - --out DIR (repeatable) makes DIR exist (host and tree), for output files.
//   - After the run, every file that Yosys created or changed is written back to the host
//     (files it deleted are left alone). The directory "share" is reserved: the package
//     mounts Yosys's own share/ data there.
//   - stdout/stderr are forwarded as they are produced; stdin is forwarded; the exit status
//     is Yosys's (0 or 1).
import fs from "node:fs";
import path from "node:path";

const DEFAULT_SKIP = new Set([".git", "node_modules", "build", "out", "share"]);

function usage(code) {
  const msg = "usage: node synth/yosys.mjs [--mount PATH]... [--out DIR]... [--] <yosys args...>\n";
  fs.writeSync(code ? 2 : 1, msg);
  process.exit(code);
}

function writeAll(fd, bytes) {
  let off = 0;
  while (off < bytes.length) {
    try {
      off += fs.writeSync(fd, bytes, off, bytes.length - off);
    } catch (e) {
      if (e.code !== "EAGAIN") throw e;
    }
  }
}

// Check that a path given to --mount/--out stays inside the current directory.
function relInside(p) {
  const rel = path.relative(process.cwd(), path.resolve(p));
  if (rel.startsWith("..") || path.isAbsolute(rel)) {
    fs.writeSync(2, `yosys.mjs: ${p} is outside the current directory; cd to a directory containing it\n`);
    process.exit(2);
  }
  return rel;
}

// Insert host path `rel` (file or directory) into `tree`; record originals in `orig`.
function load(tree, rel, orig, skip) {
  const st = fs.statSync(rel === "" ? "." : rel);
  const parts = rel === "" ? [] : rel.split(path.sep);
  if (parts[0] === "share") {
    fs.writeSync(2, `yosys.mjs: warning: ${rel} is hidden by Yosys's own share/ directory\n`);
  }
  let node = tree;
  const last = st.isDirectory() ? parts.length : parts.length - 1;
  for (let i = 0; i < last; i++) node = node[parts[i]] ??= {};
  if (st.isFile()) {
    const data = new Uint8Array(fs.readFileSync(rel));
    node[parts[parts.length - 1]] = data;
    orig.set(rel, data);
    return;
  }
  for (const ent of fs.readdirSync(rel === "" ? "." : rel, { withFileTypes: true })) {
    const child = rel === "" ? ent.name : path.join(rel, ent.name);
    if (ent.isDirectory()) {
      if (skip && (DEFAULT_SKIP.has(ent.name) || ent.name.startsWith("."))) continue;
      load(tree, child, orig, false);
    } else if (ent.isFile() || (ent.isSymbolicLink() && fs.statSync(child).isFile())) {
      load(tree, child, orig, false);
    }
  }
}

function writeBack(tree, prefix, orig) {
  let n = 0;
  for (const [name, val] of Object.entries(tree)) {
    const rel = prefix === "" ? name : path.join(prefix, name);
    if (val instanceof Uint8Array || typeof val === "string") {
      const data = typeof val === "string" ? new TextEncoder().encode(val) : val;
      const old = orig.get(rel);
      if (old && old.length === data.length && Buffer.compare(Buffer.from(old), Buffer.from(data)) === 0) continue;
      fs.mkdirSync(path.dirname(rel === "" ? "." : rel), { recursive: true });
      fs.writeFileSync(rel, data);
      n++;
    } else {
      fs.mkdirSync(rel, { recursive: true });
      n += writeBack(val, rel, orig);
    }
  }
  return n;
}

const argv = process.argv.slice(2);
const mounts = [];
const outs = [];
while (argv.length) {
  const a = argv[0];
  if (a === "--") { argv.shift(); break; }
  if (a === "--mount" || a === "--out") {
    if (argv.length < 2) usage(2);
    (a === "--mount" ? mounts : outs).push(argv[1]);
    argv.splice(0, 2);
  } else if (a.startsWith("--mount=")) { mounts.push(a.slice(8)); argv.shift(); }
  else if (a.startsWith("--out=")) { outs.push(a.slice(6)); argv.shift(); }
  else if (a === "--wrapper-help") usage(0);
  else break;
}

let yosys;
try {
  yosys = await import("@yowasp/yosys");
} catch (e) {
  fs.writeSync(2, `yosys.mjs: cannot load @yowasp/yosys (${e.message}); run 'make deps' (or 'npm ci') in the repo root\n`);
  process.exit(127);
}

const tree = {};
const orig = new Map();
if (mounts.length === 0) load(tree, "", orig, true);
for (const m of mounts) load(tree, relInside(m), orig, false);
for (const o of outs) {
  const rel = relInside(o);
  fs.mkdirSync(rel === "" ? "." : rel, { recursive: true });
  let node = tree;
  for (const p of rel.split(path.sep).filter(Boolean)) node = node[p] ??= {};
}

const stdinBuf = Buffer.alloc(65536);
const options = {
  stdout: (bytes) => { if (bytes) writeAll(1, bytes); },
  stderr: (bytes) => { if (bytes) writeAll(2, bytes); },
  stdin: (n) => {
    try {
      const got = fs.readSync(0, stdinBuf, 0, Math.min(n, stdinBuf.length), null);
      return got === 0 ? null : new Uint8Array(stdinBuf.subarray(0, got));
    } catch (e) {
      return null;
    }
  },
  decodeASCII: false,
};

let result;
let code = 0;
try {
  result = await yosys.runYosys(argv, tree, options);
} catch (e) {
  if (e instanceof yosys.Exit) {
    code = e.code || 1;
    result = e.files;
  } else {
    fs.writeSync(2, `yosys.mjs: ${e.stack || e}\n`);
    process.exit(70);
  }
}
if (result) writeBack(result, "", orig);
process.exitCode = code;
