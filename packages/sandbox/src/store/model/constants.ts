/** The versions the emulated install reports (order `version`, webhook User-Agent). */
export const WC_VERSION = '10.3.5';
export const WP_VERSION = '6.8.3';
