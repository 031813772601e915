/** The middle of the figures (the upper one of the two middles when there are an even number). */
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
