#!/usr/bin/env bash
# Builds the .deb from the app image that build-image.sh made. Run by the packaging module's `package`
# profile (packaging/build).
#
# usage: build-deb.sh WORK VERSION
#   WORK     packaging/target: image/fencelab is read; deb/ is written
#   VERSION  the project version (0.1.0-SNAPSHOT becomes the Debian version 0.1.0~snapshot)
#
# Laid out by hand with dpkg-deb rather than `jpackage --type deb`, which derives Depends from whatever
# libraries the build machine happens to have installed, stamps every file with the build time (the
# AOT cache in the image checks its jars' times, and would be ignored after installation) and
# installs its menu entry from maintainer scripts through xdg-utils. Here:
#   /usr/lib/fencelab/                  the app image as it is (bin/fencelab, lib/app, lib/runtime)
#   /usr/bin/fencelab                   -> ../lib/fencelab/bin/fencelab (the launcher finds its image
#                                          through the link)
#   /usr/share/applications/fencelab.desktop, /usr/share/icons/hicolor/*/apps/fencelab.{png,svg}
#                                       (dpkg triggers refresh the menu and icon caches)
set -euo pipefail

WORK=$1 VERSION=$2
HERE="$(cd "$(dirname "$0")" && pwd)"
IMAGE="$WORK/image/fencelab"
say() { echo "[fencelab package] $*"; }

command -v dpkg-deb >/dev/null || { echo "build-deb.sh: dpkg-deb is needed (Debian: apt-get install dpkg)" >&2; exit 1; }
[ -x "$IMAGE/bin/fencelab" ] || { echo "build-deb.sh: no app image at $IMAGE (build-image.sh makes it)" >&2; exit 1; }

deb_version="${VERSION/-SNAPSHOT/~snapshot}"
arch=$(dpkg --print-architecture)

# What the image's native code links against (readelf -d NEEDED of every .so in the runtime and of the
# launcher), by the Debian 12 package that provides each library; the t64-renamed packages of later
# releases provide these names. GTK 3 is the console's window toolkit (JavaFX's glass), GL and
# Xxf86vm its ES2 pipeline, pango/cairo/freetype/fontconfig its text, the X libraries AWT's (JavaFX's
# Swing bridge and image export), ALSA the JDK's sound library.
depends="libc6 (>= 2.17), libgtk-3-0, libgdk-pixbuf-2.0-0, libglib2.0-0, libpango-1.0-0, libpangocairo-1.0-0,
 libpangoft2-1.0-0, libcairo2, libcairo-gobject2, libatk1.0-0, libfreetype6, libfontconfig1, libgl1, libx11-6,
 libxext6, libxi6, libxrender1, libxtst6, libxxf86vm1, libasound2"

stage="$WORK/deb/stage"
rm -rf "$WORK/deb"
mkdir -p "$stage/DEBIAN" "$stage/usr/lib" "$stage/usr/bin"
cp -a "$IMAGE" "$stage/usr/lib/fencelab"   # -a keeps the files' times, which the AOT cache checks
ln -s ../lib/fencelab/bin/fencelab "$stage/usr/bin/fencelab"
install -D -m 644 "$HERE/../deb/fencelab.desktop" "$stage/usr/share/applications/fencelab.desktop"
install -D -m 644 "$HERE/../deb/copyright" "$stage/usr/share/doc/fencelab/copyright"
for size in 48 128 256; do
  install -D -m 644 "$HERE/../icons/fencelab-$size.png" "$stage/usr/share/icons/hicolor/${size}x${size}/apps/fencelab.png"
done
install -D -m 644 "$HERE/../icons/fencelab.svg" "$stage/usr/share/icons/hicolor/scalable/apps/fencelab.svg"

cat > "$stage/DEBIAN/control" <<EOF
Package: fencelab
Version: $deb_version
Architecture: $arch
Maintainer: Fencelab maintainers <maintainers@fencelab.invalid>
Section: education
Priority: optional
Installed-Size: $(du -sk "$stage/usr" | cut -f1)
Depends: $(echo $depends)
Description: lab for seeing, teaching and testing fencing tokens
 Fencelab runs lease-holding workers against an embedded PostgreSQL 17 and shows
 them in a JavaFX console: holders take the lease, freeze, wake up and write,
 the gap between what the lease service says and what a holder believes is drawn
 on a timeline, and a live verdict says whether a stale write got through.
 .
 Type fencelab for the console (without a display it says so and tells the
 paused-holder story in the terminal), fencelab list for the scenario catalog,
 fencelab run paused-holder --report out/ for a run and its report. It brings
 its own Java runtime and PostgreSQL; it needs no JDK.
EOF

deb="$WORK/deb/fencelab_${deb_version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
rm -rf "$stage"
say "deb: $deb ($(du -h "$deb" | cut -f1), installed $(dpkg-deb -f "$deb" Installed-Size) KiB)"
