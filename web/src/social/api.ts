// The social part of the HTTP API (docs/api.md, "Social" and "Moderation", issue 41).

import { call } from '../api';

export type ReportReason = 'cheating' | 'abuse' | 'boosting' | 'sandbagging' | 'other';
export const REPORT_REASONS: ReportReason[] = ['cheating', 'abuse', 'boosting', 'sandbagging', 'other'];
export type Mark = 'booster' | 'cheater';

export interface SocialView {
  username: string;
  following: number;
  followers: number;
  mark: Mark | null;
  closed: boolean;
  you_follow: boolean;
  you_block: boolean;
}

export interface FollowingEntry { username: string; online: boolean; playing: string[]; since: number }
export interface FollowList { username: string; count: number; players: { username: string; since: number }[] }

/** A message around a reported one, as the moderators read it (removed ones too). */
export interface AroundLine { id: string; author: string | null; text: string | null; phrase: string | null; at: number; removed: boolean; reported: boolean }

export interface ReportView {
  id: string;
  reporter: string;
  username: string;
  reason: ReportReason;
  text: string;
  game: string | null;
  status: 'open' | 'closed';
  created_at: number;
  closed_at: number | null;
  closed_by: string | null;
  /** The reported chat message, if the report names one. */
  message?: {
    id: string; room: string; text: string | null; phrase: string | null;
    /** The moderators' list: the room's messages around it, oldest first, this one included. */
    around?: AroundLine[];
  };
  /** The moderators' list: what is in force on the reported account now. */
  standing?: { muted_until: number | null; mark: Mark | null; closed_at: number | null; open_reports: number };
}

export type ChallengesFrom = 'everyone' | 'following' | 'nobody';
export const CHALLENGES_FROM: ChallengesFrom[] = ['everyone', 'following', 'nobody'];
/** Reports a page of `GET /api/mod/reports` holds. */
export const REPORTS_PAGE = 50;
export type ModAction = 'mute' | 'unmute' | 'close' | 'reopen' | 'mark' | 'unmark';

export interface ModLogLine { moderator: string; action: string; target: string; details: string; at: number }
export interface MyModeration { moderator: boolean; is_muted: boolean; muted_until: number | null }

const player = (name: string) => `/api/players/${encodeURIComponent(name)}`;

export const socialApi = {
  social: (name: string) => call<SocialView>('GET', `${player(name)}/social`),
  follow: (name: string, on: boolean) => call<void>(on ? 'POST' : 'DELETE', `${player(name)}/follow`),
  block: (name: string, on: boolean) => call<void>(on ? 'POST' : 'DELETE', `${player(name)}/block`),
  following: () => call<FollowingEntry[]>('GET', '/api/me/following'),
  followers: (name: string) => call<FollowList>('GET', `${player(name)}/followers`),
  report: (username: string, reason: ReportReason, text: string) =>
    call<{ id: string }>('POST', '/api/reports', { username, reason, text }),
  me: () => call<MyModeration>('GET', '/api/me/moderation'),
  reports: (status: 'open' | 'closed', page = 1) => call<ReportView[]>('GET', `/api/mod/reports?status=${status}&page=${page}`),
  closeReport: (id: string) => call<ReportView>('POST', `/api/mod/reports/${encodeURIComponent(id)}/close`),
  act: (name: string, action: ModAction, body: { reason: string; minutes?: number; mark?: Mark }) =>
    call<unknown>('POST', `/api/mod/players/${encodeURIComponent(name)}/${action}`, body),
  log: () => call<ModLogLine[]>('GET', '/api/mod/log'),
  /** `POST /api/mod/tournaments/{id}/rename`: the event gets its kind's default name. */
  renameTournament: (id: string, reason: string) => call<{ id: string; name: string }>('POST', `/api/mod/tournaments/${encodeURIComponent(id)}/rename`, { reason }),
  removeMessage: (id: string, reason: string) => call<{ id: string; room: string }>('POST', `/api/mod/chat/${encodeURIComponent(id)}/remove`, { reason }),
  challengesFrom: () => call<{ from: ChallengesFrom }>('GET', '/api/me/challenges-from'),
  setChallengesFrom: (from: ChallengesFrom) => call<{ from: ChallengesFrom }>('POST', '/api/me/challenges-from', { from }),
};
