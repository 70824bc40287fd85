package io.fencelab.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.InvalidArgumentException;
import org.openqa.selenium.Pdf;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.print.PageMargin;
import org.openqa.selenium.print.PageSize;
import org.openqa.selenium.print.PrintOptions;

/**
 * A real headless Chromium for browser and print tests: Debian's {@code chromium} and
 * {@code chromium-driver} ({@code ./run-tests} installs them where it can). Where they are missing a
 * test is skipped with the reason, except under CI ({@code CI} set), where a missing browser fails
 * the test: CI must not pass by testing nothing.
 */
public final class Browser {

    /** Paper a browser prints to, in centimetres as Chromium's print dialog takes them. */
    public enum Paper {
        A4(21.0, 29.7), LETTER(21.59, 27.94);

        public final double widthCm;
        public final double heightCm;

        Paper(double widthCm, double heightCm) {
            this.widthCm = widthCm;
            this.heightCm = heightCm;
        }
    }

    private static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("FENCELAB_CHROMIUM", "/usr/bin/chromium"));
    private static final Path DRIVER = Path.of(System.getenv().getOrDefault("FENCELAB_CHROMEDRIVER", "/usr/bin/chromedriver"));

    private Browser() {
    }

    /** Skips the calling test where there is no browser (fails under CI instead). */
    public static void assumeAvailable() {
        boolean there = Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER);
        if (!there && System.getenv("CI") != null) {
            throw new AssertionError("CI needs " + CHROMIUM + " and " + DRIVER
                    + " (Debian's chromium and chromium-driver; ./run-tests installs them as root)");
        }
        Assumptions.assumeTrue(there, "no headless Chromium here (" + CHROMIUM + ", " + DRIVER
                + "): install Debian's chromium and chromium-driver");
    }

    /**
     * A new headless Chromium with its own empty profile (its own cookies). Close it with
     * {@link ChromeDriver#quit()}. The flags keep it off the network this machine does not have.
     */
    public static ChromeDriver open() {
        assumeAvailable();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-dev-shm-usage", "--window-size=1280,900");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
        return driver;
    }

    /** Prints the page at {@code url} (a file: or http: address) to {@code pdf} on {@code paper}, as a browser's Print does. */
    public static Path print(String url, Paper paper, Path pdf) throws java.io.IOException {
        ChromeDriver driver = open();
        try {
            return print(driver, url, paper, pdf);
        } finally {
            driver.quit();
        }
    }

    /**
     * As {@link #print(String, Paper, Path)}, in a browser already open (from {@link #open()}): a test
     * that prints many pages starts Chromium once.
     */
    public static Path print(ChromeDriver driver, String url, Paper paper, Path pdf) throws java.io.IOException {
        driver.get(url);
        waitUntilRendered(driver);
        PrintOptions options = new PrintOptions();
        options.setPageSize(new PageSize(paper.heightCm, paper.widthCm));
        options.setPageMargin(new PageMargin(1.0, 1.0, 1.0, 1.0));
        options.setBackground(true);
        Pdf printed;
        try {
            printed = driver.print(options);
        } catch (InvalidArgumentException e) {
            // Chromium's DevTools now and then answer "Printing failed" on a loaded machine (seen once
            // in 12 prints with four builds sharing two cores); the same page prints on a second try.
            if (e.getMessage() == null || !e.getMessage().contains("Printing failed")) {
                throw e;
            }
            printed = driver.print(options);
        }
        byte[] bytes = Base64.getDecoder().decode(printed.getContent());
        if (bytes.length < BLANK_PDF_BYTES) {
            // A large page (a live run's report is 700 KB of SVG) once printed as one blank page on a
            // loaded machine although it had loaded; printed again once it has surely been laid out.
            sleep(1_000);
            bytes = Base64.getDecoder().decode(driver.print(options).getContent());
        }
        Files.write(pdf, bytes);
        return pdf;
    }

    /** A PDF this small holds one empty page (Chromium's blank page is under 1 KB). */
    private static final int BLANK_PDF_BYTES = 2_000;

    /** Waits (up to 30 s) until the page has loaded and laid itself out at least once. */
    private static void waitUntilRendered(ChromeDriver driver) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (!"complete".equals(driver.executeScript("return document.readyState"))
                && System.nanoTime() < deadline) {
            sleep(50);
        }
        // Two animation frames: the first lays the page out, the second has painted it.
        driver.executeAsyncScript("const done = arguments[arguments.length - 1];"
                + "requestAnimationFrame(() => requestAnimationFrame(() => done(true)));");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while printing", e);
        }
    }
}
