// Runs `task` every `ms` while the page is visible, and at once when it becomes visible again;
// never two at a time. Answers a stop function.
export function whileVisible(task, ms) {
  let timer;
  let running = false;
  let stopped = false;
  async function tick() {
    clearTimeout(timer);
    if (stopped) return;
    if (document.visibilityState === 'visible' && !running) {
      running = true;
      try {
        await task();
      } finally {
        running = false;
      }
    }
    if (!stopped) timer = setTimeout(tick, ms);
  }
  const onVisible = () => {
    if (document.visibilityState === 'visible') void tick();
  };
  document.addEventListener('visibilitychange', onVisible);
  timer = setTimeout(tick, ms);
  return () => {
    stopped = true;
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
