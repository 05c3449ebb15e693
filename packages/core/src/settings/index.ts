export * from './settings.entities';
export * from './settings.ports';
export * from './load-settings';
export * from './get-brand-settings';
export * from './update-brand-settings';
