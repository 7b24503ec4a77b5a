/**
 * The example: an inventory service written as a plain annotated interface, served and called through
 * the code boltgen generates for it. {@link io.boltgen.example.ExampleMain} is the runnable demo.
 */
package io.boltgen.example;
