package io.fencelab.app.console.ui;

/** The file dialogs (replaceable in tests, which cannot click through native dialogs). */
public interface Dialogs {

    /** What an image export shows. */
    enum Part { TIMELINE, CHARTS, WINDOW }

    void openScenarioFile();

    void openSavedRun();

    void exportReport();

    void exportPng(Part part);

    /** The printable handout of the scenario on show, or of the open workshop's lessons. */
    void exportHandout();
}
