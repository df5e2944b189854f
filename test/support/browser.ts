import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Browser } from 'playwright-core';

/**
 * Flags that keep Chromium's own services (updates, sync, metrics, safe browsing, …) from calling
 * out, so that the only traffic is what the page asks for.
 */
const OFFLINE_FLAGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-default-apps',
  '--disable-domain-reliability',
  '--disable-sync',
  '--disable-client-side-phishing-detection',
  '--metrics-recording-only',
  '--no-first-run',
  '--no-pings',
  '--no-sandbox', // the suite may run as root, where Chromium's sandbox refuses to start
];

/**
 * Headless Chromium from the @sparticuz/chromium package (unpacked on first use), driven by
 * playwright-core: an installed npm package is all it needs, no browser download.
 */
export async function launchChromium(): Promise<Browser> {
  return playwright.launch({
    executablePath: await chromium.executablePath(),
    args: [...chromium.args, ...OFFLINE_FLAGS],
    headless: true,
  });
}
