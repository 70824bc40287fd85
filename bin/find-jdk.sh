# Sourced by ./run-tests, ./fencelab and .ci/run: exports JAVA_HOME pointing at a JDK 21 or newer.
# Order: $JAVA_HOME, the `java` on PATH, then the JDKs under /usr/lib/jvm (newest first).

fencelab_java_major() {
  # Prints the major version of the JDK at $1 (0 when it is not a JDK).
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || { echo 0; return; }
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n 1
}

fencelab_find_jdk() {
  local candidates=() dir major
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v javac >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")")
  fi
  for dir in $(ls -d /usr/lib/jvm/*/ /opt/java/*/ /opt/*jdk*/ 2>/dev/null | sort -rV); do
    candidates+=("${dir%/}")
  done
  for dir in "${candidates[@]}"; do
    major=$(fencelab_java_major "$dir")
    if [ "${major:-0}" -ge 21 ] 2>/dev/null; then
      export JAVA_HOME="$dir"
      export PATH="$JAVA_HOME/bin:$PATH"
      return 0
    fi
  done
  echo "fencelab: no JDK 21 or newer found (looked at JAVA_HOME, the javac on PATH and /usr/lib/jvm)." >&2
  echo "fencelab: install one (for example Temurin 21 or 25) or set JAVA_HOME to it." >&2
  return 1
}
