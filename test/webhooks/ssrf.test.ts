import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyAddress, parseIp } from '../../src/webhooks/addresses.js';
import {
  AllowList,
  checkWebhookUrlSyntax,
  DestinationRefusedError,
  guardedLookup,
  resolveVetted,
  webhookConfigFromEnv,
  type HostResolver,
} from '../../src/webhooks/ssrf.js';

const strict = { allowHosts: [], allowHttp: false };
const hostOf = (url: string): string => new URL(url).hostname;

describe('the address classifier', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['172.15.255.255', 'public'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['100.128.0.1', 'public'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'reserved'],
  ])('IPv4 %s is %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });

  it.each([
    ['2606:4700:4700::1111', 'public'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
  ])('IPv6 %s is %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:0808:0808::1', 'public'],
  ])('IPv6 carrying IPv4 %s is judged as the IPv4 address: %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });

  it('sees through the spellings the URL parser normalizes (decimal, hex, octal, short, bracketed)', () => {
    expect(hostOf('http://2130706433/')).toBe('127.0.0.1');
    expect(classifyAddress(hostOf('http://2130706433/'))).toBe('loopback');
    expect(classifyAddress(hostOf('http://0x7f.0.0.1/'))).toBe('loopback');
    expect(classifyAddress(hostOf('http://0177.0.0.1/'))).toBe('loopback');
    expect(classifyAddress(hostOf('http://127.1/'))).toBe('loopback');
    expect(classifyAddress(hostOf('http://0xa9fea9fe/'))).toBe('metadata');
    expect(classifyAddress(hostOf('http://[::ffff:127.0.0.1]/'))).toBe('loopback');
    expect(classifyAddress(hostOf('http://[::ffff:a9fe:a9fe]/'))).toBe('metadata');
    expect(classifyAddress(hostOf('http://[0:0:0:0:0:0:0:1]/'))).toBe('loopback');
  });

  it('judges every IPv4-mapped IPv6 address, in either spelling, exactly as its IPv4 address', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        const hex = new URL(`http://[::ffff:${ip}]/`).hostname;
        expect(classifyAddress(`::ffff:${ip}`)).toBe(classifyAddress(ip));
        expect(classifyAddress(hex)).toBe(classifyAddress(ip));
      }),
    );
  });

  it('parses only real IP literals', () => {
    expect(parseIp('example.com')).toBeNull();
    expect(parseIp('1.2.3')).toBeNull();
    expect(parseIp('256.1.1.1')).toBeNull();
    expect(parseIp('[::1]')).toEqual({ family: 6, value: 1n });
    expect(() => classifyAddress('localhost')).toThrow();
  });
});

describe('the allow-list', () => {
  it('matches names case-insensitively and addresses in any spelling', () => {
    const allow = new AllowList(['Hooks.Internal.Example', '127.0.0.1', '::1']);
    expect(allow.has('hooks.internal.example')).toBe(true);
    expect(allow.has('hooks.internal.example.')).toBe(true);
    expect(allow.has('127.0.0.1')).toBe(true);
    expect(allow.has('::ffff:127.0.0.1')).toBe(true);
    expect(allow.has('[0:0:0:0:0:0:0:1]')).toBe(true);
    expect(allow.has('127.0.0.2')).toBe(false);
    expect(allow.has('other.example')).toBe(false);
  });
});

describe('checkWebhookUrlSyntax (configuration time, no DNS)', () => {
  it('accepts public https URLs', () => {
    expect(checkWebhookUrlSyntax('https://merchant.example/hooks?x=1', strict)).toBeNull();
    expect(checkWebhookUrlSyntax('https://merchant.example:8443/hooks', strict)).toBeNull();
    expect(checkWebhookUrlSyntax('https://8.8.8.8/hooks', strict)).toBeNull();
  });

  it('requires https unless the operator allows http', () => {
    expect(checkWebhookUrlSyntax('http://merchant.example/hooks', strict)).toBe('must use https');
    expect(checkWebhookUrlSyntax('http://merchant.example/hooks', { ...strict, allowHttp: true })).toBeNull();
    expect(checkWebhookUrlSyntax('ftp://merchant.example/hooks', { ...strict, allowHttp: true })).toBe('must use https or http');
    expect(checkWebhookUrlSyntax('not a url', strict)).toBe('must be an absolute URL');
    expect(checkWebhookUrlSyntax(`https://merchant.example/${'a'.repeat(2100)}`, strict)).toMatch(/at most 2048/);
  });

  it('refuses credentials and privileged ports', () => {
    expect(checkWebhookUrlSyntax('https://user:pw@merchant.example/hooks', strict)).toMatch(/user name or password/);
    expect(checkWebhookUrlSyntax('https://merchant.example:22/hooks', strict)).toMatch(/port/);
    expect(checkWebhookUrlSyntax('https://merchant.example:443/hooks', strict)).toBeNull();
  });

  it('refuses address literals and localhost names outside the allow-list', () => {
    for (const url of [
      'https://127.0.0.1/hooks',
      'https://2130706433/hooks',
      'https://[::1]/hooks',
      'https://[::ffff:127.0.0.1]/hooks',
      'https://10.1.2.3/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://[fd00:ec2::254]/hooks',
      'https://0.0.0.0/hooks',
      'https://localhost/hooks',
      'https://api.localhost/hooks',
    ]) {
      expect(checkWebhookUrlSyntax(url, strict), url).toMatch(/points to a/);
    }
    expect(checkWebhookUrlSyntax('https://127.0.0.1:9000/hooks', { allowHosts: ['127.0.0.1'], allowHttp: false })).toBeNull();
    expect(checkWebhookUrlSyntax('https://localhost:80/hooks', { allowHosts: ['localhost'], allowHttp: false })).toBeNull();
  });
});

describe('resolution at delivery time', () => {
  const table: Record<string, string[]> = {
    'public.example': ['93.184.216.34', '2606:2800:220:1::1'],
    'internal.example': ['10.1.2.3'],
    'mixed.example': ['93.184.216.34', '127.0.0.1'],
    'metadata.example': ['169.254.169.254'],
  };
  const resolve: HostResolver = async (host) => (table[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('passes a host whose every address is public', async () => {
    const addresses = await resolveVetted('public.example', new AllowList([]), resolve);
    expect(addresses.map((a) => a.address)).toEqual(table['public.example']);
  });

  it('refuses a host with any address off limits, naming it', async () => {
    await expect(resolveVetted('internal.example', new AllowList([]), resolve)).rejects.toThrow(/private address \(10\.1\.2\.3\)/);
    await expect(resolveVetted('mixed.example', new AllowList([]), resolve)).rejects.toThrow(/loopback/);
    await expect(resolveVetted('metadata.example', new AllowList([]), resolve)).rejects.toBeInstanceOf(DestinationRefusedError);
    await expect(resolveVetted('nowhere.example', new AllowList([]), resolve)).rejects.toThrow(/no address/);
  });

  it('lets allow-listed names and addresses through', async () => {
    await expect(resolveVetted('internal.example', new AllowList(['internal.example']), resolve)).resolves.toHaveLength(1);
    await expect(resolveVetted('internal.example', new AllowList(['10.1.2.3']), resolve)).resolves.toHaveLength(1);
  });

  it('answers the socket lookup with exactly the vetted addresses, in both callback shapes', async () => {
    const lookup = guardedLookup(new AllowList([]), resolve);
    const all = await new Promise((ok, fail) => lookup('public.example', { all: true }, (err, addresses) => (err ? fail(err) : ok(addresses))));
    expect(all).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
    const one = await new Promise((ok, fail) => lookup('public.example', { family: 6 }, (err, address, family) => (err ? fail(err) : ok([address, family]))));
    expect(one).toEqual(['2606:2800:220:1::1', 6]);
    const refused = await new Promise((ok) => lookup('internal.example', { all: true }, (err) => ok(err)));
    expect(refused).toBeInstanceOf(DestinationRefusedError);
  });
});

describe('webhookConfigFromEnv', () => {
  it('reads the allow-list and the http switch, strict by default', () => {
    expect(webhookConfigFromEnv({})).toEqual({ allowHosts: [], allowHttp: false });
    expect(webhookConfigFromEnv({ WEBHOOK_ALLOW_HOSTS: ' 127.0.0.1, hooks.internal ,', WEBHOOK_ALLOW_HTTP: 'true' })).toEqual({
      allowHosts: ['127.0.0.1', 'hooks.internal'],
      allowHttp: true,
    });
    expect(() => webhookConfigFromEnv({ WEBHOOK_ALLOW_HTTP: 'maybe' })).toThrow(/WEBHOOK_ALLOW_HTTP/);
  });
});
