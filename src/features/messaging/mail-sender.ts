/** From and Reply-To of a company's survey message. */
export interface MailSender {
  from: string;
  replyTo?: string;
}

interface Address {
  name: string;
  address: string;
}

/** "Name <addr>" or a bare address (the forms the company's mailFrom setting accepts). */
function parseAddress(value: string): Address {
  const match = /^(.*)<([^<>]+)>\s*$/.exec(value);
  const name = (match ? match[1] : '').trim().replace(/^"(.*)"$/, '$1');
  return { name, address: (match ? match[2] : value).trim() };
}

const domain = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/** A quoted display name: quotes and backslashes escaped, line breaks gone (no header injection). */
function formatAddress({ name, address }: Address): string {
  const quoted = name.replace(/[\r\n]+/g, ' ').replace(/["\\]/g, '\\$&');
  return quoted ? `"${quoted}" <${address}>` : address;
}

/**
 * The company is the sender: its mailFrom's name and address when the address is on the
 * deployment's own domain (the only one whose SPF/DKIM the deployment's relay answers for);
 * otherwise its name on the deployment's address, its own address as Reply-To, so answers reach
 * it and receivers enforcing DMARC do not drop the message. No mailFrom: the company's name on
 * the deployment's address.
 */
export function mailSender(company: { name: string; mailFrom: string | null }, deploymentFrom: string): MailSender {
  const deployment = parseAddress(deploymentFrom);
  if (!company.mailFrom) return { from: formatAddress({ name: company.name, address: deployment.address }) };
  const own = parseAddress(company.mailFrom);
  const name = own.name || company.name;
  if (domain(own.address) === domain(deployment.address)) return { from: formatAddress({ name, address: own.address }) };
  return { from: formatAddress({ name, address: deployment.address }), replyTo: formatAddress({ name, address: own.address }) };
}
