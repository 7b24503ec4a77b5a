// The build failed (invoker.properties); it must have failed for the guard's reason, on the right element.
def log = new File(basedir, 'build.log').getText('UTF-8')
assert log.contains('[Bolt/FieldRenumbered] field quantity of message Order (demo.guard.Order) was number 2 in the baseline')
assert log.contains('Order.java')
assert log.contains('mvn clean compile -Dboltgen.baseline.update=true')
