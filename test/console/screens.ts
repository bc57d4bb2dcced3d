// Where the console's browser tests leave their screenshots for a person to look at (git-ignored),
// and the two widths every page is shot at.
import path from 'node:path';

export const SCREENSHOT_DIR = path.resolve('test/console/screenshots');
export const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;
