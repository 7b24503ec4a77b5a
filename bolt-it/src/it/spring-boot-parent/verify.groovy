// The snippet leaves the compiler plugin's version and release to Spring Boot's parent: the build must have
// compiled with the version the parent manages (not a downgrade to an older pin, nor Maven's default 3.1),
// with the parent's -parameters and the release from java.version.
def log = new File(basedir, 'build.log').getText('UTF-8')
def bootPom = new File(localRepositoryPath,
    'org/springframework/boot/spring-boot-dependencies/4.0.7/spring-boot-dependencies-4.0.7.pom').getText('UTF-8')
def managed = (bootPom =~ /<maven-compiler-plugin\.version>([^<]+)</)[0][1]
def used = (log =~ /maven-compiler-plugin:([^:\s]+):(?:compile|testCompile)/).collect { it[1] } as Set
assert used == [managed] as Set : "compiled with maven-compiler-plugin ${used}, Spring Boot's parent manages ${managed}"
assert log =~ /Compiling \d+ source files? with javac \[debug parameters release 17\] to target[\/\\]classes/
assert log.contains('Tests run: 1, Failures: 0, Errors: 0, Skipped: 0')
