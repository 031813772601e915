/** The session's Web Push subscription (docs/API.md, "Web Push"). Errors carry the server's message. */
import { apiClient, errorMessage } from '../../../services/apiClient';
import type { PushAlerts } from '../lib/pushKinds';

export interface PushSubscriptionView {
  id: string;
  endpoint: string;
  alerts: PushAlerts;
  policy: string;
  serverKey: string;
}

const SUBSCRIPTION_URL = '/api/push/subscription';

const statusOf = (error: unknown) => (error as { response?: { status?: number } } | null)?.response?.status;

async function call<T>(request: () => Promise<{ data: T }>): Promise<T> {
  try {
    return (await request()).data;
  } catch (error) {
    throw new Error(errorMessage(error), { cause: error });
  }
}

export const pushApi = {
  /** The instance's VAPID public key; null when the instance has pushes off (404 `PushDisabled`). */
  async key(): Promise<string | null> {
    try {
      return (await apiClient.get<{ publicKey: string }>('/api/push/key')).data.publicKey;
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw new Error(errorMessage(error), { cause: error });
    }
  },
  /** This session's subscription, or null when it has none. */
  async current(): Promise<PushSubscriptionView | null> {
    try {
      return (await apiClient.get<PushSubscriptionView>(SUBSCRIPTION_URL)).data;
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw new Error(errorMessage(error), { cause: error });
    }
  },
  subscribe: (subscription: PushSubscriptionJSON, alerts: PushAlerts) =>
    call(() =>
      apiClient.post<PushSubscriptionView>(SUBSCRIPTION_URL, {
        endpoint: subscription.endpoint,
        keys: subscription.keys,
        alerts,
      }),
    ),
  change: (alerts: PushAlerts) =>
    call(() => apiClient.request<PushSubscriptionView>({ method: 'PUT', url: SUBSCRIPTION_URL, data: { alerts } })),
  remove: () => call(() => apiClient.delete(SUBSCRIPTION_URL)),
};
