# Sourced by the scripts in bin/: selects JDK 25 and a Maven >= 3.9.1 (bootstrapped once into .build/maven
# from the default Maven repository with whatever older Maven the machine has).
PROJECT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MAVEN_VERSION=3.9.11

if [ -z "${JAVA_HOME:-}" ] || ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q '"25'; then
    for candidate in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25-jdk-arm64 /usr/lib/jvm/java-25-openjdk-amd64 /usr/lib/jvm/java-25-openjdk-arm64; do
        if [ -x "$candidate/bin/java" ]; then
            export JAVA_HOME="$candidate"
            break
        fi
    done
fi
if [ -z "${JAVA_HOME:-}" ] || ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q '"25'; then
    echo "JDK 25 is required: set JAVA_HOME to a JDK 25 installation" >&2
    exit 1
fi
export PATH="$JAVA_HOME/bin:$PATH"
# the Lance SDK 7.0 never finishes an inverted index when its CPU pool has one thread (hosts of up to three cores);
# the servers, tests and benchmarks these scripts start get a pool of four unless told otherwise
export LANCE_CPU_THREADS="${LANCE_CPU_THREADS:-4}"

MAVEN_HOME_DIR="$PROJECT_ROOT/.build/maven/apache-maven-$MAVEN_VERSION"
if [ ! -x "$MAVEN_HOME_DIR/bin/mvn" ]; then
    if ! command -v mvn >/dev/null 2>&1; then
        echo "A Maven installation (any version) is needed once to bootstrap Maven $MAVEN_VERSION" >&2
        exit 1
    fi
    mkdir -p "$PROJECT_ROOT/.build/maven"
    (cd "$PROJECT_ROOT/.build/maven" && mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
        -Dartifact=org.apache.maven:apache-maven:$MAVEN_VERSION:tar.gz:bin -DoutputDirectory=. \
        && tar -xzf apache-maven-$MAVEN_VERSION-bin.tar.gz && rm -f apache-maven-$MAVEN_VERSION-bin.tar.gz)
fi
export PATH="$MAVEN_HOME_DIR/bin:$PATH"
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
