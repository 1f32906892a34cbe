/** Channel of the commits that queue messages: send-invites wakes the sleeping message loops on it. */
export const MESSAGES_CHANNEL = 'quorum_invite_messages';
