/** Debian's Chromium through playwright-core, with the flags this closed network needs. No test runner here. */
import { type Browser, chromium, devices } from 'playwright-core';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}

export const DESKTOP = { viewport: { width: 1280, height: 800 } };
export const MOBILE = {
  viewport: { width: 375, height: 812 },
  userAgent: devices['iPhone 13'].userAgent,
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
};
