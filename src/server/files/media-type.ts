import { Mime } from "mime";
import otherTypes from "mime/types/other.js";
import standardTypes from "mime/types/standard.js";

const mime = new Mime(standardTypes, otherTypes).define({ "text/x-python": ["py"] }, true);

/** The media type a file's name suggests: what a file a run wrote is served and shown as. */
export const mediaTypeOfName = (name: string) => mime.getType(name) ?? "application/octet-stream";

/** Raster images a browser shows as they are; every other type (SVG and HTML included) is a download. */
export const SHOWN_IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
