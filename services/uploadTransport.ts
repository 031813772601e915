/**
 * Sends one request through XMLHttpRequest, the only browser API that reports upload progress
 * (fetch cannot). Used by the API client for uploads.
 */
import type { RawResponse } from './rawResponse';

export interface ProgressRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: BodyInit;
  withCredentials: boolean;
  onProgress: (event: { loaded: number; total: number }) => void;
}

function parseHeaders(text: string): Headers {
  const headers = new Headers();
  for (const line of text.trim().split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

export function sendWithProgress(request: ProgressRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, request.url);
    xhr.withCredentials = request.withCredentials;
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) request.onProgress({ loaded: event.loaded, total: event.total });
    };
    xhr.onload = () =>
      resolve({ status: xhr.status, headers: parseHeaders(xhr.getAllResponseHeaders()), body: xhr.responseText });
    xhr.onerror = () => reject(new TypeError('Network Error'));
    xhr.onabort = () => reject(new TypeError('Request aborted'));
    xhr.send((request.body ?? null) as XMLHttpRequestBodyInit | null);
  });
}
