/**
 * What every feature's views share: the stylesheet and style switching, the frame loop, the intents
 * views fire, the key map and its help overlay, the colours of write classes, the screen plan and the
 * scaled screen, the file dialogs, and the wording of problems. Depends only on the model.
 */
package io.fencelab.app.console.ui;
