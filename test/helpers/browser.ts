// Debian's Chromium driven by playwright-core (never a downloaded browser): the flags keep it from
// reaching the network on its own, which it otherwise does in the background during a test.
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}
