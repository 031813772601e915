import { useEffect, useState } from 'react';

/** How often a running job is read again; four times as long after a read that failed. */
const POLL_MS = 1500;

interface Job {
  id: string;
  state: string;
}

/**
 * A background job as a settings section shows it (issue 76's imports): the person's latest job,
 * read once so that it shows when the page is opened again (`onLatest` hears it), then read again
 * every 1.5 s while it runs. `setJob` takes what an action answered (a job started, cancelled).
 */
export function useBackgroundJob<J extends Job>(
  latest: () => Promise<J | null>,
  progress: (id: string) => Promise<J>,
  onLatest?: (job: J) => void,
) {
  const [job, setJob] = useState<J | null>(null);

  useEffect(() => {
    let live = true;
    latest().then(
      (found) => {
        if (!live || !found) return;
        setJob((current) => current ?? found);
        onLatest?.(found);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [latest, onLatest]);

  const running = job?.state === 'running' ? job.id : null;
  useEffect(() => {
    if (!running) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout>;
    const look = () => {
      progress(running).then(
        (next) => {
          if (!live) return;
          setJob(next);
          if (next.state === 'running') timer = setTimeout(look, POLL_MS);
        },
        () => {
          if (live) timer = setTimeout(look, POLL_MS * 4);
        },
      );
    };
    timer = setTimeout(look, POLL_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [running, progress]);

  return [job, setJob] as const;
}
