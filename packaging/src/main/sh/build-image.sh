#!/usr/bin/env bash
# Builds Fencelab's app image: a jlink runtime with the JDK modules jdeps finds plus JavaFX as named
# modules, a jpackage app image around it with one launcher (bin/fencelab), and, on JDK 25 and newer,
# an AOT cache trained in a copy of the image. Run by the packaging module's `package` profile
# (packaging/build); it can also be run by hand after that profile's dependency copies.
#
# usage: build-image.sh JDK WORK MAIN_JAR VERSION
#   JDK       the JDK whose jdeps, jmod, jlink and jpackage build the image (and whose modules it holds)
#   WORK      packaging/target: app/ (the class path, host PostgreSQL binaries only) and javafx/ (the
#             OpenJFX jars with the host's natives) are read; jmods/, runtime/ and image/ are written
#   MAIN_JAR  the jar in app/ whose name jpackage records as the main jar
#   VERSION   the project version (0.1.0-SNAPSHOT becomes the app version 0.1.0)
set -euo pipefail

JDK=$1 WORK=$2 MAIN_JAR=$3 VERSION=$4
HERE="$(cd "$(dirname "$0")" && pwd)"
IMAGE="$WORK/image/fencelab"
say() { echo "[fencelab package] $*"; }

feature=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$JDK/release")
if [ "${feature:-0}" -lt 21 ]; then
  echo "build-image.sh: $JDK is not a JDK 21 or newer" >&2
  exit 1
fi
for tool in jdeps jmod jlink jpackage; do
  [ -x "$JDK/bin/$tool" ] || { echo "build-image.sh: $JDK has no $tool (a JRE, or a JDK without jlink?)" >&2; exit 1; }
done

# 1. JavaFX as jmods. Each OpenJFX -linux jar is a modular jar with its natives inside; as a jmod, the
#    natives go to the runtime's lib/ where JavaFX's loader finds them (nothing is extracted to
#    ~/.openjfx at run time), and JavaFX loads as named modules: no "Unsupported JavaFX configuration".
rm -rf "$WORK/jmods" "$WORK/fx-unpacked"
mkdir -p "$WORK/jmods"
for jar in "$WORK"/javafx/*.jar; do
  module=$("$JDK/bin/jar" --describe-module --file "$jar" | sed -n '1s/@.*//p')
  classes="$WORK/fx-unpacked/$module/classes" libs="$WORK/fx-unpacked/$module/libs"
  mkdir -p "$classes" "$libs"
  (cd "$classes" && "$JDK/bin/jar" --extract --file "$jar")
  find "$classes" -name '*.so' -exec mv {} "$libs/" \;
  rm -rf "$classes/META-INF"
  lib_args=()
  [ -n "$(ls -A "$libs")" ] && lib_args=(--libs "$libs")
  "$JDK/bin/jmod" create --class-path "$classes" "${lib_args[@]}" "$WORK/jmods/$module.jmod"
done
rm -rf "$WORK/fx-unpacked"
say "JavaFX jmods: $(cd "$WORK/jmods" && echo *.jmod)"

# 2. The modules the program needs, as jdeps finds them in every class Fencelab's jars reach, plus those it
#    cannot see because they are reached by reflection:
#    jdk.security.auth - embedded PostgreSQL (zonky) asks com.sun.security.auth.module.UnixSystem whether
#                        it runs as root, and then starts initdb/postgres in a user namespace; without
#                        it, initdb refuses to run as root (containers, CI).
#    jdeps starts from Fencelab's own jars and follows every class they reach through the class path
#    (--recursive): the lease services' clients (Netty 4.2, ZooKeeper, Redisson's reactive libraries)
#    ship module descriptors that name optional modules which are not there (protobuf, JBoss
#    Marshalling) or split a package, and jdeps refuses a set of jars like that as modules; on the
#    class path their descriptors are not read.
jdeps_modules=$("$JDK/bin/jdeps" --multi-release "$feature" --ignore-missing-deps --print-module-deps --recursive \
  --module-path "$WORK/javafx" --class-path "$WORK/app/*" "$WORK"/app/fencelab-*.jar)
modules="$jdeps_modules,jdk.security.auth,javafx.controls,javafx.swing"
say "jdeps: $jdeps_modules"

# 3. The runtime. A JDK without jmods/ (Temurin 25) links its own modules from its run-time image.
module_path="$WORK/jmods"
[ -d "$JDK/jmods" ] && module_path="$JDK/jmods:$module_path"
aot=false
[ "$feature" -ge 25 ] && aot=true
cds_args=()
$aot || cds_args=(--generate-cds-archive)   # with an AOT cache (step 5) the default CDS archive is unused
rm -rf "$WORK/runtime"
"$JDK/bin/jlink" --module-path "$module_path" --add-modules "$modules" \
  --strip-debug --no-header-files --no-man-pages --compress zip-6 "${cds_args[@]}" \
  --output "$WORK/runtime"
say "runtime: $(du -sh "$WORK/runtime" | cut -f1), modules $modules"

# 4. The app image. Launcher options:
#    --enable-native-access=javafx.graphics  JavaFX loads its natives (System.load) from a named module
#    --sun-misc-unsafe-memory-access=allow   JavaFX 21's Marlin renderer allocates memory through
#                                            sun.misc.Unsafe (JDK 23+ warns on every run otherwise)
#    --add-exports ...=ALL-UNNAMED           the class path reaches into JavaFX internals: ControlsFX
#                                            (com.sun.javafx.event, scene.control[.behavior]) and the
#                                            Monocle headless platform that bench-console uses
java_options=(--enable-native-access=javafx.graphics)
[ "$feature" -ge 23 ] && java_options+=(--sun-misc-unsafe-memory-access=allow)
for export in javafx.base/com.sun.javafx.event javafx.controls/com.sun.javafx.scene.control \
    javafx.controls/com.sun.javafx.scene.control.behavior \
    javafx.base/com.sun.javafx javafx.base/com.sun.javafx.logging \
    javafx.graphics/com.sun.glass.events javafx.graphics/com.sun.glass.ui javafx.graphics/com.sun.glass.ui.delegate \
    javafx.graphics/com.sun.glass.utils javafx.graphics/com.sun.javafx.tk javafx.graphics/com.sun.javafx.util; do
  java_options+=("--add-exports=$export=ALL-UNNAMED")
done
jpackage_options=()
for option in "${java_options[@]}"; do
  jpackage_options+=(--java-options "$option")
done
# With an AOT cache (step 5), no jar may be sealed: JDK 25 loads the cached classes of a sealed package
# at startup and stops with "sealing violation: can't seal package ...: already defined" once the
# image has moved away from where it was trained (xz, which embedded PostgreSQL uses, is sealed).
# Sealing only keeps other jars out of the jar's packages; the class path here is fixed.
if $aot; then
  for jar in "$WORK"/app/*.jar; do
    unpacked="$WORK/unseal/$(basename "$jar")"
    mkdir -p "$unpacked/files"
    (cd "$unpacked/files" && "$JDK/bin/jar" --extract --file "$jar" META-INF/MANIFEST.MF)
    if grep -qi '^Sealed: *true' "$unpacked/files/META-INF/MANIFEST.MF" 2>/dev/null; then
      (cd "$unpacked/files" && "$JDK/bin/jar" --extract --file "$jar")
      mv "$unpacked/files/META-INF/MANIFEST.MF" "$unpacked/MANIFEST.MF"
      sed -i '/^Sealed: *true/Id' "$unpacked/MANIFEST.MF"
      "$JDK/bin/jar" --create --file "$jar" --manifest "$unpacked/MANIFEST.MF" -C "$unpacked/files" .
      say "unsealed $(basename "$jar") for the AOT cache"
    fi
  done
  rm -rf "$WORK/unseal"
fi
rm -rf "$WORK/image"
"$JDK/bin/jpackage" --type app-image --name fencelab --app-version "${VERSION%%-*}" \
  --vendor Fencelab --description "A lab for seeing, teaching and testing fencing tokens" \
  --icon "$HERE/../icons/fencelab-256.png" \
  --runtime-image "$WORK/runtime" --input "$WORK/app" --main-jar "$MAIN_JAR" --main-class io.fencelab.dist.Main \
  "${jpackage_options[@]}" --dest "$WORK/image"

# 5. The AOT cache (JDK 25+, JEP 483/514): classes loaded and linked in a training run are mapped at the
#    next start instead of being read and linked again. Trained by bench-console with small settings
#    (it opens the console on Monocle, headless, plays runs and exits) in a copy of the image that is
#    deleted afterwards: same runtime, options and jars (cp -a keeps the times the cache checks), and
#    the image and every install of it meet the cache where it was not trained, so a cache that only
#    works in place fails here, not on a user's machine. A cache that does not match (another
#    runtime, changed jars) is ignored silently, so it can only make starts faster.
if $aot; then
  training="$WORK/aot-training"
  rm -rf "$training"
  mkdir -p "$training"
  cp -a "$IMAGE" "$training/fencelab"
  say "AOT cache: training on bench-console (log: $training/training.log)"
  if ! (cd "$training" && env -u DISPLAY -u WAYLAND_DISPLAY FENCELAB_DATA_DIR="$training/pgdata" \
      JAVA_TOOL_OPTIONS="-XX:AOTCacheOutput=$training/fencelab.aot" \
      "$training/fencelab/bin/fencelab" bench-console --holders 20 --events 2000 --frames 60 --flood 5000 --rounds 1 \
      --live-workers 20 --live-seconds 1 >"$training/training.log" 2>&1); then
    tail -n 30 "$training/training.log" >&2
    echo "build-image.sh: the AOT training run failed (log above)" >&2
    exit 1
  fi
  [ -s "$training/fencelab.aot" ] || { echo "build-image.sh: the training run wrote no AOT cache" >&2; exit 1; }
  mv "$training/fencelab.aot" "$IMAGE/lib/app/fencelab.aot"
  echo 'java-options=-XX:AOTCache=$APPDIR/fencelab.aot' >> "$IMAGE/lib/app/fencelab.cfg"
  rm -rf "$training/fencelab" "$training/pgdata"
  if ! "$IMAGE/bin/fencelab" --version >/dev/null 2>"$training/check.err" || [ -s "$training/check.err" ]; then
    cat "$training/check.err" >&2
    echo "build-image.sh: the image does not start with its AOT cache (above)" >&2
    exit 1
  fi
fi
say "image: $IMAGE ($(du -sh "$IMAGE" | cut -f1))"
