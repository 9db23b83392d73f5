/** A gc-create-vm body: one small Ubuntu lab reached over SSH, `over` on top. */
export const linuxVm = (over: Record<string, unknown> = {}) => ({
  image: 'ubuntu',
  protocol: 'ssh',
  zone: 'asia-south1-a',
  count: 1,
  softwares: '',
  storage: 10,
  ram: 2,
  ...over,
});
