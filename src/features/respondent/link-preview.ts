/**
 * User agents of link-preview fetchers: the messaging apps, social networks and crawlers that
 * fetch a link to draw its card, and the mail scanners that fetch it to check it. Their GET is not a person opening the invite (contract
 * decisions: WhatsApp's preview fetch must not mark an invite opened). One list, matched as
 * case-insensitive substrings of the User-Agent header.
 */
const PREVIEW_AGENTS = [
  // the preview fetch says "WhatsApp/2.23.20.0 A"; in-app browsers of these apps send a browser's agent
  'whatsapp/',
  'facebookexternalhit',
  'facebookcatalog',
  'meta-externalagent',
  'slackbot',
  'slack-imgproxy',
  'twitterbot',
  'telegrambot',
  'discordbot',
  'linkedinbot',
  'googlebot',
  'google-inspectiontool',
  'bingbot',
  'bingpreview',
  'applebot',
  'skypeuripreview',
  'pinterestbot',
  'redditbot',
  'embedly',
  'iframely',
  'yandexbot',
  'duckduckbot',
  'baiduspider',
  'mastodon',
  'kakaotalk-scrap',
  'vkshare',
  // mail scanners and link checkers that name themselves (many send a browser's agent instead: only
  // a person's sign opens an invite, docs/contract.md "Opens")
  'microsoft office',
  'ms-office',
  'outlook-ios',
  'google-safety',
  'googleimageproxy',
  'proofpoint',
  'mimecast',
  'barracuda',
] as const;

/** True when the User-Agent names a link-preview fetcher or crawler; an absent one is a person's client. */
export function isLinkPreview(userAgent: string | undefined): boolean {
  if (!userAgent) return false;
  const agent = userAgent.toLowerCase();
  return PREVIEW_AGENTS.some((name) => agent.includes(name));
}
