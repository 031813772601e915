import type {
  AdminLogEntry,
  AdminOverview,
  AdminUserInfo,
  DomainBlock,
  DomainSeverity,
  Explore,
  HiddenFromTrends,
  Report,
  ReportAction,
  ReportReason,
  ReportTargetType,
} from '../../../lib/types';
import { apiUrls } from '../../../lib/apiUrls';
import { apiClient, getPage, type Page } from '../../../services/apiClient';

export interface ReportInput {
  targetType: ReportTargetType;
  targetId: string;
  reason: ReportReason;
  note: string;
}

const hidden = (kind: HiddenFromTrends['kind'], subject: string) =>
  `/api/admin/explore/hidden/${kind}/${encodeURIComponent(subject)}`;

const user = (username: string) => `/api/admin/users/${encodeURIComponent(username)}`;

export const moderationApi = {
  async report(input: ReportInput): Promise<{ id: string }> {
    return (await apiClient.post<{ id: string }>('/api/reports', input)).data;
  },
  page: <T>(url: string): Promise<Page<T>> => getPage<T>(url),
  async resolve(id: string, action: ReportAction, note = ''): Promise<Report> {
    return (await apiClient.post<Report>(`/api/admin/reports/${encodeURIComponent(id)}/resolve`, { action, note }))
      .data;
  },
  async overview(): Promise<AdminOverview> {
    return (await apiClient.get<AdminOverview>('/api/admin/overview')).data;
  },
  log: (): Promise<Page<AdminLogEntry>> => getPage<AdminLogEntry>('/api/admin/log'),
  async lookup(username: string): Promise<AdminUserInfo> {
    return (await apiClient.get<AdminUserInfo>(user(username))).data;
  },
  async suspend(username: string, note = ''): Promise<AdminUserInfo> {
    return (await apiClient.post<AdminUserInfo>(`${user(username)}/suspend`, { note })).data;
  },
  async unsuspend(username: string, note = ''): Promise<AdminUserInfo> {
    return (await apiClient.post<AdminUserInfo>(`${user(username)}/unsuspend`, { note })).data;
  },
  async domains(): Promise<DomainBlock[]> {
    return (await apiClient.get<DomainBlock[]>('/api/admin/domains')).data;
  },
  async blockDomain(domain: string, severity: DomainSeverity): Promise<DomainBlock> {
    return (await apiClient.post<DomainBlock>('/api/admin/domains', { domain, severity })).data;
  },
  async unblockDomain(domain: string): Promise<void> {
    await apiClient.delete(`/api/admin/domains/${encodeURIComponent(domain)}`);
  },
  async trends(): Promise<Explore> {
    return (await apiClient.get<Explore>(apiUrls.explore())).data;
  },
  async hiddenFromTrends(): Promise<HiddenFromTrends[]> {
    return (await apiClient.get<HiddenFromTrends[]>('/api/admin/explore/hidden')).data;
  },
  async hideFromTrends(kind: HiddenFromTrends['kind'], subject: string): Promise<HiddenFromTrends> {
    return (await apiClient.request<HiddenFromTrends>({ method: 'PUT', url: hidden(kind, subject) })).data;
  },
  async showInTrends(kind: HiddenFromTrends['kind'], subject: string): Promise<void> {
    await apiClient.delete(hidden(kind, subject));
  },
};
