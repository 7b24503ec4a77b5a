/** The boltgen annotation processor (work in progress). */
package io.boltgen.processor;
