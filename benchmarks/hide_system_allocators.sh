#!/bin/sh
# Run a command as on a machine without Debian's mimalloc and jemalloc: in a mount namespace of its
# own, an empty file is bound over each (the loader finds them and cannot load them). As root:
#   unshare -m benchmarks/hide_system_allocators.sh python benchmarks/bench.py ...
for f in /usr/lib/*-linux-gnu/libmimalloc.so.2.0 /usr/lib/*-linux-gnu/libjemalloc.so.2; do
  [ -e "$f" ] && mount --bind /dev/null "$f"
done
exec "$@"
