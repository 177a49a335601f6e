# Sourced by .ci/run and the launcher: exports JAVA_HOME pointing at a JDK 24 or newer (Trino 476 needs it).
# Order: JAVA_HOME if it is 24+, else the Temurin 25 installed beside the machine's default JDK.

java_feature_version() {
    "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n 1
}

paimon_find_java_home() {
    local candidate version
    for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25-jdk-arm64 /usr/lib/jvm/temurin-25-jdk /usr/lib/jvm/temurin-25*; do
        if [ -n "${candidate}" ] && [ -x "${candidate}/bin/java" ]; then
            version=$(java_feature_version "${candidate}")
            if [ -n "${version}" ] && [ "${version}" -ge 24 ]; then
                echo "${candidate}"
                return 0
            fi
        fi
    done
    return 1
}

if ! JAVA_HOME=$(paimon_find_java_home); then
    echo "ERROR: Trino 476 needs JDK 24 or newer. Set JAVA_HOME to one, or install Temurin 25 at /usr/lib/jvm/temurin-25-jdk-amd64." >&2
    exit 1
fi
export JAVA_HOME
export PATH="${JAVA_HOME}/bin:${PATH}"
