// How many turns another task gets on the event loop while a call runs. On SQLite better-sqlite3
// answers at once, so a call that never gives the loop a turn leaves this at (nearly) nothing: tests use
// it to show that a long read yields between its parts.
export async function turnsDuring<T>(run: () => Promise<T>): Promise<{ readonly result: T; readonly turns: number }> {
  let turns = 0;
  let ticking = true;
  const tick = (): void => {
    turns += 1;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    const result = await run();
    return { result, turns };
  } finally {
    ticking = false;
  }
}
