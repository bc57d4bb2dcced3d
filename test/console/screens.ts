// What the console's browser tests share: where they leave their screenshots for a person to look at
// (git-ignored), the two widths every page is shot at, and the watch that turns a dialog, a CSP
// violation or a script error into a recorded failure of the page, whatever it shows.
import path from 'node:path';
import type { Page } from 'playwright-core';

export const SCREENSHOT_DIR = path.resolve('test/console/screenshots');
export const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;

/** Shoots the page at both widths as `<name>-phone.png` and `<name>-desktop.png`, and leaves it at desktop width. */
export async function screenshotsAtBothWidths(page: Page, name: string): Promise<void> {
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${size}.png`), fullPage: true });
  }
  await page.setViewportSize(SIZES.desktop);
}

/**
 * Records every dialog (dismissed) in `dialogs`, and every console error and script error in
 * `problems`, except the refusals a test asks for on purpose (console errors matching `expectedRefusals`).
 */
export function watchPage(page: Page, watch: { readonly dialogs: string[]; readonly problems: string[]; readonly expectedRefusals: RegExp }): void {
  page.on('dialog', (dialog) => {
    watch.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && !watch.expectedRefusals.test(message.text())) watch.problems.push(message.text());
  });
  page.on('pageerror', (error) => watch.problems.push(error.message));
}
