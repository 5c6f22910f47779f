// `orchard doctor`: is this machine set up for Orchard, and what fixes what is not (SPEC v5 §3.16).
export { doctor, type DoctorCheck, type DoctorResult } from "./doctor.js";
