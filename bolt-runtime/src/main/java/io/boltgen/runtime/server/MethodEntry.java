package io.boltgen.runtime.server;

import io.boltgen.runtime.service.MethodDescriptor;
import io.boltgen.runtime.service.ServiceInvoker;
import java.util.concurrent.Executor;

/**
 * A registered method: its descriptor, the invoker of its service and the executor it runs on
 * ({@code null} for the endpoint's default).
 */
record MethodEntry(MethodDescriptor<?, ?> method, ServiceInvoker invoker, Executor executor) {}
