/**
 * Exporting what is on show: the report bundle, the handout, and pictures of the window.
 */
package io.fencelab.app.console.export;
