#!/usr/bin/env bash
# Runs the README's two commands on a fresh minimal Debian bookworm, as a new user would: debootstrap --variant=minbase
# into a folder, the checkout's HEAD copied in (git archive), then in a chroot (proc, dev, sys mounted, DNS copied):
#   scripts/install-deps.sh && scripts/demo.sh     the quick start
#   scripts/test.sh                                the test command
# and prints the wall time of each step. Exits non-zero when any step fails. As root (debootstrap, chroot, mount).
#
#   scripts/fresh-machine-test.sh [--dir DIR] [--quick] [--keep] [--mirror URL]
#     --dir DIR      where the system is made (default /tmp/tx8-fresh; emptied first, removed after unless --keep)
#     --quick        install-deps.sh and demo.sh only (no test.sh): about the build's time instead of the suite's
#     --keep         leave DIR behind (to look into a failure: chroot DIR/root bash)
#     --mirror URL   Debian mirror (default: the one apt on this machine uses, else deb.debian.org)
#
# Too slow for every CI run (a cold build and the whole suite in the chroot); run it before resolving an issue that
# touches the build, the install list or the test command. The cheap form in CI is ctest's deps_closure check.
# What a fresh system lacks is what this finds: a package this machine happens to have (Debian's `lld`, a Recommends
# installed by hand) that install-deps.sh does not list.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=/tmp/tx8-fresh quick=0 keep=0 mirror=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=${2:?--dir needs a directory}; shift 2 ;;
    --quick) quick=1; shift ;;
    --keep) keep=1; shift ;;
    --mirror) mirror=${2:?--mirror needs a URL}; shift 2 ;;
    *) echo "fresh-machine-test: unknown argument '$1' (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" -eq 0 ] || { echo "fresh-machine-test: needs root (debootstrap, chroot, mount)" >&2; exit 2; }
commit=$(git rev-parse --verify -q HEAD) || { echo "fresh-machine-test: not in a git checkout" >&2; exit 2; }
case "$dir" in /|/tmp|/work|"") echo "fresh-machine-test: refusing --dir $dir" >&2; exit 2 ;; esac

if [ -z "$mirror" ]; then  # the host's Debian mirror (deb822 sources, then the one-line form)
  mirror=$(sed -n 's/^URIs: *\([^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
  [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $3 == "bookworm" {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
  mirror=${mirror:-http://deb.debian.org/debian}
fi
security=${mirror%/debian}/debian-security

root=$dir/root
cleanup() {
  for m in sys dev proc; do
    mountpoint -q "$root/$m" 2>/dev/null && umount -R -l "$root/$m" 2>/dev/null || true
  done
  if [ "$keep" -eq 0 ]; then rm -rf --one-file-system "$dir"; fi
}
trap cleanup EXIT

now() { date +%s.%N; }
took() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.0f s", b - a }'; }
results=()
step() {  # step NAME COMMAND...: runs, times, records; stops the script on failure
  local name=$1 t0 status
  shift
  echo "fresh-machine-test: == $name"
  t0=$(now)
  "$@" && status=0 || status=$?
  results+=("$(printf '  %-48s %8s  %s' "$name" "$(took "$t0")" "$([ $status -eq 0 ] && echo ok || echo "FAILED (exit $status)")")")
  if [ $status -ne 0 ]; then
    summary
    exit 1
  fi
}
summary() {
  echo "fresh-machine-test: ${commit:0:7}, $mirror"
  printf '%s\n' "${results[@]}"
}

if ! command -v debootstrap >/dev/null; then
  step "apt-get install debootstrap (host)" bash -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap'
fi
rm -rf --one-file-system "$dir"
mkdir -p "$dir"
step "debootstrap --variant=minbase bookworm" \
  debootstrap --variant=minbase bookworm "$root" "$mirror"
# A default Debian install also has the updates and security suites (chromium, for one, is only in security).
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
EOF
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/work/tx8"
git archive "$commit" | tar -x -C "$root/work/tx8"  # the commit taken at the start, whatever HEAD is by now
# CI has the steering repo's shared/ beside the checkout; give the chroot the same when it is here.
[ -d ../shared ] && cp -r ../shared "$root/work/shared"
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mount --make-rslave "$root/dev"
mount -t sysfs sys "$root/sys"

in_chroot() { chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
                bash -c "cd /work/tx8 && $1"; }
step "scripts/install-deps.sh" in_chroot scripts/install-deps.sh
step "scripts/demo.sh" in_chroot scripts/demo.sh
[ "$quick" -eq 1 ] || step "scripts/test.sh" in_chroot scripts/test.sh
summary
echo "fresh-machine-test: ok"
