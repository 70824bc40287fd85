/**
 * Comparing: the same scenario and seed run twice with one setting apart, one timeline above the other.
 */
package io.fencelab.app.console.compare;
