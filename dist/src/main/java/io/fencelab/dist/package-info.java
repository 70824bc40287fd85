/**
 * The whole program: {@link io.fencelab.dist.Main} puts the app's command line and the benchmarks
 * together. Nothing depends on this package.
 */
package io.fencelab.dist;
