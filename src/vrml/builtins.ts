// The VRML97 built-in node types (ISO/IEC 14772-1, section 6), written in the same interface syntax a
// PROTO uses so that one reader handles both. eventIn/eventOut-only members are left out except the
// grouping nodes' addChildren/removeChildren, which PROTO bodies (OpenHRP's Segment) bind with IS.

const BBOX = 'field SFVec3f bboxCenter 0 0 0 field SFVec3f bboxSize -1 -1 -1';
const GROUPING = `exposedField MFNode children [] eventIn MFNode addChildren eventIn MFNode removeChildren ${BBOX}`;

export const BUILTIN_INTERFACES: Record<string, string> = {
  Anchor: `${GROUPING} exposedField SFString description "" exposedField MFString parameter [] exposedField MFString url []`,
  Appearance: 'exposedField SFNode material NULL exposedField SFNode texture NULL exposedField SFNode textureTransform NULL',
  AudioClip:
    'exposedField SFString description "" exposedField SFBool loop FALSE exposedField SFFloat pitch 1.0 ' +
    'exposedField SFTime startTime 0 exposedField SFTime stopTime 0 exposedField MFString url []',
  Background:
    'exposedField MFFloat groundAngle [] exposedField MFColor groundColor [] exposedField MFString backUrl [] ' +
    'exposedField MFString bottomUrl [] exposedField MFString frontUrl [] exposedField MFString leftUrl [] ' +
    'exposedField MFString rightUrl [] exposedField MFString topUrl [] exposedField MFFloat skyAngle [] ' +
    'exposedField MFColor skyColor [ 0 0 0 ]',
  Billboard: `${GROUPING} exposedField SFVec3f axisOfRotation 0 1 0`,
  Box: 'field SFVec3f size 2 2 2',
  Collision: `${GROUPING} exposedField SFBool collide TRUE field SFNode proxy NULL`,
  Color: 'exposedField MFColor color []',
  ColorInterpolator: 'exposedField MFFloat key [] exposedField MFColor keyValue []',
  Cone: 'field SFFloat bottomRadius 1 field SFFloat height 2 field SFBool side TRUE field SFBool bottom TRUE',
  Coordinate: 'exposedField MFVec3f point []',
  CoordinateInterpolator: 'exposedField MFFloat key [] exposedField MFVec3f keyValue []',
  Cylinder:
    'field SFBool bottom TRUE field SFFloat height 2 field SFFloat radius 1 field SFBool side TRUE field SFBool top TRUE',
  CylinderSensor:
    'exposedField SFBool autoOffset TRUE exposedField SFFloat diskAngle 0.262 exposedField SFBool enabled TRUE ' +
    'exposedField SFFloat maxAngle -1 exposedField SFFloat minAngle 0 exposedField SFFloat offset 0',
  DirectionalLight:
    'exposedField SFFloat ambientIntensity 0 exposedField SFColor color 1 1 1 exposedField SFVec3f direction 0 0 -1 ' +
    'exposedField SFFloat intensity 1 exposedField SFBool on TRUE',
  ElevationGrid:
    'exposedField SFNode color NULL exposedField SFNode normal NULL exposedField SFNode texCoord NULL ' +
    'field MFFloat height [] field SFBool ccw TRUE field SFBool colorPerVertex TRUE field SFFloat creaseAngle 0 ' +
    'field SFBool normalPerVertex TRUE field SFBool solid TRUE field SFInt32 xDimension 0 field SFFloat xSpacing 1.0 ' +
    'field SFInt32 zDimension 0 field SFFloat zSpacing 1.0',
  Extrusion:
    'field SFBool beginCap TRUE field SFBool ccw TRUE field SFBool convex TRUE field SFFloat creaseAngle 0 ' +
    'field MFVec2f crossSection [ 1 1, 1 -1, -1 -1, -1 1, 1 1 ] field SFBool endCap TRUE ' +
    'field MFRotation orientation 0 0 1 0 field MFVec2f scale 1 1 field SFBool solid TRUE ' +
    'field MFVec3f spine [ 0 0 0, 0 1 0 ]',
  Fog: 'exposedField SFColor color 1 1 1 exposedField SFString fogType "LINEAR" exposedField SFFloat visibilityRange 0',
  FontStyle:
    'field MFString family "SERIF" field SFBool horizontal TRUE field MFString justify "BEGIN" ' +
    'field SFString language "" field SFBool leftToRight TRUE field SFFloat size 1.0 field SFFloat spacing 1.0 ' +
    'field SFString style "PLAIN" field SFBool topToBottom TRUE',
  Group: GROUPING,
  ImageTexture: 'exposedField MFString url [] field SFBool repeatS TRUE field SFBool repeatT TRUE',
  IndexedFaceSet:
    'exposedField SFNode color NULL exposedField SFNode coord NULL exposedField SFNode normal NULL ' +
    'exposedField SFNode texCoord NULL field SFBool ccw TRUE field MFInt32 colorIndex [] ' +
    'field SFBool colorPerVertex TRUE field SFBool convex TRUE field MFInt32 coordIndex [] ' +
    'field SFFloat creaseAngle 0 field MFInt32 normalIndex [] field SFBool normalPerVertex TRUE ' +
    'field SFBool solid TRUE field MFInt32 texCoordIndex []',
  IndexedLineSet:
    'exposedField SFNode color NULL exposedField SFNode coord NULL field MFInt32 colorIndex [] ' +
    'field SFBool colorPerVertex TRUE field MFInt32 coordIndex []',
  Inline: `exposedField MFString url [] ${BBOX}`,
  LOD: 'exposedField MFNode level [] field SFVec3f center 0 0 0 field MFFloat range []',
  Material:
    'exposedField SFFloat ambientIntensity 0.2 exposedField SFColor diffuseColor 0.8 0.8 0.8 ' +
    'exposedField SFColor emissiveColor 0 0 0 exposedField SFFloat shininess 0.2 ' +
    'exposedField SFColor specularColor 0 0 0 exposedField SFFloat transparency 0',
  MovieTexture:
    'exposedField SFBool loop FALSE exposedField SFFloat speed 1.0 exposedField SFTime startTime 0 ' +
    'exposedField SFTime stopTime 0 exposedField MFString url [] field SFBool repeatS TRUE field SFBool repeatT TRUE',
  NavigationInfo:
    'exposedField MFFloat avatarSize [ 0.25 1.6 0.75 ] exposedField SFBool headlight TRUE ' +
    'exposedField SFFloat speed 1.0 exposedField MFString type [ "WALK" "ANY" ] exposedField SFFloat visibilityLimit 0.0',
  Normal: 'exposedField MFVec3f vector []',
  NormalInterpolator: 'exposedField MFFloat key [] exposedField MFVec3f keyValue []',
  OrientationInterpolator: 'exposedField MFFloat key [] exposedField MFRotation keyValue []',
  PixelTexture: 'exposedField SFImage image 0 0 0 field SFBool repeatS TRUE field SFBool repeatT TRUE',
  PlaneSensor:
    'exposedField SFBool autoOffset TRUE exposedField SFBool enabled TRUE exposedField SFVec2f maxPosition -1 -1 ' +
    'exposedField SFVec2f minPosition 0 0 exposedField SFVec3f offset 0 0 0',
  PointLight:
    'exposedField SFFloat ambientIntensity 0 exposedField SFVec3f attenuation 1 0 0 exposedField SFColor color 1 1 1 ' +
    'exposedField SFFloat intensity 1 exposedField SFVec3f location 0 0 0 exposedField SFBool on TRUE ' +
    'exposedField SFFloat radius 100',
  PointSet: 'exposedField SFNode color NULL exposedField SFNode coord NULL',
  PositionInterpolator: 'exposedField MFFloat key [] exposedField MFVec3f keyValue []',
  ProximitySensor: 'exposedField SFVec3f center 0 0 0 exposedField SFVec3f size 0 0 0 exposedField SFBool enabled TRUE',
  ScalarInterpolator: 'exposedField MFFloat key [] exposedField MFFloat keyValue []',
  Shape: 'exposedField SFNode appearance NULL exposedField SFNode geometry NULL',
  Sound:
    'exposedField SFVec3f direction 0 0 1 exposedField SFFloat intensity 1 exposedField SFVec3f location 0 0 0 ' +
    'exposedField SFFloat maxBack 10 exposedField SFFloat maxFront 10 exposedField SFFloat minBack 1 ' +
    'exposedField SFFloat minFront 1 exposedField SFFloat priority 0 exposedField SFNode source NULL ' +
    'field SFBool spatialize TRUE',
  Sphere: 'field SFFloat radius 1',
  SphereSensor: 'exposedField SFBool autoOffset TRUE exposedField SFBool enabled TRUE exposedField SFRotation offset 0 1 0 0',
  SpotLight:
    'exposedField SFFloat ambientIntensity 0 exposedField SFVec3f attenuation 1 0 0 ' +
    'exposedField SFFloat beamWidth 1.570796 exposedField SFColor color 1 1 1 exposedField SFFloat cutOffAngle 0.785398 ' +
    'exposedField SFVec3f direction 0 0 -1 exposedField SFFloat intensity 1 exposedField SFVec3f location 0 0 0 ' +
    'exposedField SFBool on TRUE exposedField SFFloat radius 100',
  // `children` is not VRML97 but Choreonoid's parser accepts it for Switch.
  Switch: 'exposedField MFNode choice [] exposedField MFNode children [] exposedField SFInt32 whichChoice -1',
  Text: 'exposedField MFString string [] exposedField SFNode fontStyle NULL exposedField MFFloat length [] exposedField SFFloat maxExtent 0.0',
  TextureCoordinate: 'exposedField MFVec2f point []',
  TextureTransform:
    'exposedField SFVec2f center 0 0 exposedField SFFloat rotation 0 exposedField SFVec2f scale 1 1 ' +
    'exposedField SFVec2f translation 0 0',
  TimeSensor:
    'exposedField SFTime cycleInterval 1 exposedField SFBool enabled TRUE exposedField SFBool loop FALSE ' +
    'exposedField SFTime startTime 0 exposedField SFTime stopTime 0',
  TouchSensor: 'exposedField SFBool enabled TRUE',
  Transform:
    `${GROUPING} exposedField SFVec3f center 0 0 0 exposedField SFRotation rotation 0 0 1 0 ` +
    'exposedField SFVec3f scale 1 1 1 exposedField SFRotation scaleOrientation 0 0 1 0 exposedField SFVec3f translation 0 0 0',
  Viewpoint:
    'exposedField SFFloat fieldOfView 0.785398 exposedField SFBool jump TRUE exposedField SFRotation orientation 0 0 1 0 ' +
    'exposedField SFVec3f position 0 0 10 field SFString description ""',
  VisibilitySensor: 'exposedField SFVec3f center 0 0 0 exposedField SFBool enabled TRUE exposedField SFVec3f size 0 0 0',
  WorldInfo: 'field MFString info [] field SFString title ""',
};

/** What a node can stand for, so that a node put where it cannot stand is reported. */
export type NodeCategory =
  | 'child' | 'geometry' | 'appearance' | 'material' | 'texture' | 'textureTransform'
  | 'coordinate' | 'color' | 'normal' | 'texCoord' | 'fontStyle' | 'audio';

const CATEGORY_OF: Record<string, NodeCategory> = {
  Box: 'geometry', Cone: 'geometry', Cylinder: 'geometry', ElevationGrid: 'geometry', Extrusion: 'geometry',
  IndexedFaceSet: 'geometry', IndexedLineSet: 'geometry', PointSet: 'geometry', Sphere: 'geometry', Text: 'geometry',
  Appearance: 'appearance', Material: 'material', ImageTexture: 'texture', PixelTexture: 'texture',
  MovieTexture: 'texture', TextureTransform: 'textureTransform', Coordinate: 'coordinate', Color: 'color',
  Normal: 'normal', TextureCoordinate: 'texCoord', FontStyle: 'fontStyle', AudioClip: 'audio',
};

export const categoryOf = (builtinType: string): NodeCategory => CATEGORY_OF[builtinType] ?? 'child';

/** The category an SFNode/MFNode field of a built-in node accepts (children and the like: 'child'). */
export function expectedCategory(nodeType: string, field: string): NodeCategory | 'any' {
  switch (field) {
    case 'geometry': return 'geometry';
    case 'appearance': return 'appearance';
    case 'material': return 'material';
    case 'texture': return 'texture';
    case 'textureTransform': return 'textureTransform';
    case 'coord': return 'coordinate';
    case 'color': return 'color';
    case 'normal': return 'normal';
    case 'texCoord': return 'texCoord';
    case 'fontStyle': return 'fontStyle';
    // A Sound's source is an AudioClip or a MovieTexture.
    case 'source': return nodeType === 'Sound' ? 'any' : 'child';
    default: return 'child';
  }
}
