// Placeholder until the database harness lands.
export default async function setup(): Promise<void> {}
