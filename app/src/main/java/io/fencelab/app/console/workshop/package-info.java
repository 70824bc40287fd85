/**
 * Teaching: lessons and workshops, guided mode and the question on screen, the room's votes, the
 * presenter view and the teacher's window.
 */
package io.fencelab.app.console.workshop;
